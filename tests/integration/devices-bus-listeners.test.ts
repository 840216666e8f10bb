import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../common/clock.ts';
import { startTestGateway } from '../support/gateway.ts';

// The devices feature's parts (lock watch, safety supervisor, automation runner and the feature's own
// snapshot listener) subscribe under their owner names and stop with bus.removeAll(owner): after a stop
// none of them listens, and a restart-free stop leaves no listener behind to act on a later event.
const OWNERS = ['devices', 'devices-locks', 'devices-safety', 'devices-automation'];

describe('devices feature listeners on the event bus', () => {
  it('are there while the gateway runs and all gone once it stops', async () => {
    const gateway = await startTestGateway({}, { clock: new ManualClock() });
    try {
      for (const owner of OWNERS) expect(gateway.bus.listenerCount(owner), owner).toBeGreaterThan(0);
      expect(gateway.bus.listenerCount('devices-safety')).toBe(5);
      // Samples, ticks, sensor health, device changes, clock changes, removals and climate program changes.
      expect(gateway.bus.listenerCount('devices-automation')).toBe(7);
      expect(gateway.bus.listenerCount('devices-locks')).toBe(6);
    } finally {
      await gateway.dispose();
    }
    for (const owner of OWNERS) expect(gateway.bus.listenerCount(owner), owner).toBe(0);
  });
});

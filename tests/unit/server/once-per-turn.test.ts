import { describe, expect, it } from 'vitest';
import { oncePerTurn, oncePerTurnBy } from '../../../server/metrics/gateway-metrics.ts';

describe('oncePerTurn (a metrics scrape lists the devices once for all its gauges)', () => {
  it('answers every call in the same turn with one read, and reads afresh in the next turn', async () => {
    let reads = 0;
    const listDevices = oncePerTurn(() => [`read ${++reads}`]);
    expect(listDevices()).toEqual(['read 1']);
    expect(listDevices()).toEqual(['read 1']);
    await Promise.resolve(); // a gauge's collect after an await of the scrape: still the same turn
    expect(listDevices()).toEqual(['read 1']);
    await new Promise((resolve) => setImmediate(resolve));
    expect(listDevices()).toEqual(['read 2']);
    expect(reads).toBe(2);
  });

  it("oncePerTurnBy reads each key once per turn (a pump's water for three gauges)", async () => {
    const reads: string[] = [];
    const waterToday = oncePerTurnBy((deviceId: string) => {
      reads.push(deviceId);
      return { deviceId, read: reads.length };
    });
    expect(waterToday('pump-1')).toEqual({ deviceId: 'pump-1', read: 1 });
    expect(waterToday('pump-2')).toEqual({ deviceId: 'pump-2', read: 2 });
    expect(waterToday('pump-1')).toEqual({ deviceId: 'pump-1', read: 1 });
    await new Promise((resolve) => setImmediate(resolve));
    expect(waterToday('pump-1')).toEqual({ deviceId: 'pump-1', read: 3 });
    expect(reads).toEqual(['pump-1', 'pump-2', 'pump-1']);
  });
});

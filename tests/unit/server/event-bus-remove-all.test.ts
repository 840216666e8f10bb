import { describe, expect, it } from 'vitest';
import { EventBus } from '../../../server/events/bus.ts';

describe('EventBus.removeAll(owner)', () => {
  it("clears every listener of that owner on every event, and no one else's", () => {
    const bus = new EventBus({ error: () => {} });
    const heard: string[] = [];
    bus.on('alertRaised', 'mqtt', () => heard.push('mqtt:alert'));
    bus.on('deviceAdded', 'mqtt', () => heard.push('mqtt:device'));
    bus.on('alertRaised', 'realtime', () => heard.push('realtime:alert'));
    bus.removeAll('mqtt');
    bus.emit('alertRaised', { alert: {} as never });
    bus.emit('deviceAdded', { greenhouseId: 'g', device: {} as never });
    expect(heard).toEqual(['realtime:alert']);
    expect(bus.listenerCount('mqtt')).toBe(0);
    expect(bus.listenerCount('realtime')).toBe(1);
  });
});

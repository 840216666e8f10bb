import { describe, expect, it } from 'vitest';
import { Outbox } from '../../../server/mqtt/outbox.ts';
import { parseCommand, Topics } from '../../../server/mqtt/topics.ts';

const drain = (outbox: Outbox) => {
  const out: string[] = [];
  for (let m = outbox.shift(); m; m = outbox.shift()) out.push(`${m.topic}=${m.payload}`);
  return out;
};

describe('Outbox', () => {
  it('keeps only the newest retained state per topic, in the order of their last change', () => {
    const outbox = new Outbox({ eventLimit: 10 });
    outbox.push({ topic: 'fan/state', payload: 'ON', retain: true });
    outbox.push({ topic: 'alerts', payload: 'a1', retain: false });
    outbox.push({ topic: 'pump/state', payload: 'ON', retain: true });
    outbox.push({ topic: 'fan/state', payload: 'OFF', retain: true });
    expect(outbox.size).toBe(3);
    expect(drain(outbox)).toEqual(['alerts=a1', 'pump/state=ON', 'fan/state=OFF']);
    expect(outbox.size).toBe(0);
  });

  it('bounds the bytes of events too: a few large answers push the oldest out, retained states stay', () => {
    const outbox = new Outbox({ eventLimit: 1000, eventByteLimit: 1000 });
    outbox.push({ topic: 'status', payload: 'x'.repeat(2000), retain: true });
    for (let i = 0; i < 5; i++) outbox.push({ topic: 'r', payload: `${i}`.repeat(300), retain: false });
    // 301 bytes each: three fit in 1000.
    expect(outbox.dropped).toBe(2);
    expect(outbox.eventBytes).toBe(903);
    expect(drain(outbox).map((m) => m.slice(0, 3))).toEqual(['sta', 'r=2', 'r=3', 'r=4']);
    expect(outbox.eventBytes).toBe(0);
  });

  it('bounds events by dropping the oldest and counting them, never a retained state', () => {
    const outbox = new Outbox({ eventLimit: 3 });
    outbox.push({ topic: 'status', payload: 'online', retain: true });
    for (let i = 0; i < 10; i++) outbox.push({ topic: 'alerts', payload: `a${i}`, retain: false });
    expect(outbox.dropped).toBe(7);
    expect(drain(outbox)).toEqual(['status=online', 'alerts=a7', 'alerts=a8', 'alerts=a9']);
    outbox.push({ topic: 'alerts', payload: 'b', retain: false });
    expect(drain(outbox)).toEqual(['alerts=b']);
  });
});

describe('topics', () => {
  const topics = new Topics('farm/site-2', 'house-a');
  it('finds the device id of a command topic, and nothing else', () => {
    expect(topics.commandDeviceId('farm/site-2/house-a/devices/fan-1/set')).toBe('fan-1');
    expect(topics.commandDeviceId('farm/site-2/house-a/devices/fan-1/state')).toBeNull();
    expect(topics.commandDeviceId('farm/site-2/house-b/devices/fan-1/set')).toBeNull();
    expect(topics.commandDeviceId('farm/site-2/house-a/devices//set')).toBeNull();
  });
  it('reads the four commands in any case and nothing more', () => {
    expect([' on ', 'Off', 'OPEN', 'close'].map(parseCommand)).toEqual(['on', 'off', 'open', 'close']);
    expect(['TOGGLE', 'STOP', '', '1'].map(parseCommand)).toEqual([null, null, null, null]);
  });
});

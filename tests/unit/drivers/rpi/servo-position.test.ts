import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../common/clock.ts';
import { SERVO_SETTLE_MS, ServoOutput } from '../../../../drivers/rpi/servo.ts';
import { pulseForOpenPct } from '../../../../drivers/rpi/servo-convert.ts';
import { fakePigpio, type OpLog } from './fakes.ts';

describe('the roof-window servo takes a position and then rests', () => {
  it('maps an opening linearly between the closed and open pulses', () => {
    const pulses = { openPulseUs: 2000, closedPulseUs: 1000 };
    expect([0, 25, 50, 100].map((pct) => pulseForOpenPct(pct, pulses))).toEqual([1000, 1250, 1500, 2000]);
    expect(() => pulseForOpenPct(101, pulses)).toThrow(/101/);
  });

  it('stops its pulses once in position, so it neither jitters nor heats while it holds', async () => {
    const log: OpLog = [];
    const clock = new ManualClock(0);
    const servo = new ServoOutput({ pigpio: fakePigpio(log), outputId: 'servo-1', pin: 18, openPulseUs: 2000, closedPulseUs: 1000, clock });
    const pulses = () => log.filter((l) => l.startsWith('pigpio:servo'));
    await servo.setOpenPct(40);
    expect(pulses()).toEqual(['pigpio:servo 18 1400']);
    clock.advance(SERVO_SETTLE_MS - 1);
    expect(pulses()).toHaveLength(1);
    clock.advance(1);
    expect(pulses()).toEqual(['pigpio:servo 18 1400', 'pigpio:servo 18 0']);
    // A new position before the old one settled: one stop, after the new one.
    await servo.setOpenPct(60);
    clock.advance(500);
    await servo.set(false);
    clock.advance(SERVO_SETTLE_MS);
    expect(pulses().slice(2)).toEqual(['pigpio:servo 18 1600', 'pigpio:servo 18 1000', 'pigpio:servo 18 0']);
  });

  it('at shutdown no pending stop calls into pigpio after it is terminated', async () => {
    const log: OpLog = [];
    const clock = new ManualClock(0);
    const servo = new ServoOutput({ pigpio: fakePigpio(log), outputId: 'servo-1', pin: 18, openPulseUs: 2000, closedPulseUs: 1000, clock });
    await servo.set(false);
    servo.close();
    clock.advance(SERVO_SETTLE_MS);
    expect(log.filter((l) => l.startsWith('pigpio:servo'))).toEqual(['pigpio:servo 18 1000']);
  });
});

import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../common/clock.ts';
import { SensorReadError } from '../../../../drivers/types.ts';
import { validateDht22 } from '../../../../drivers/rpi/dht22-convert.ts';
import { DHT22_MODEL, DhtSensor } from '../../../../drivers/rpi/dht-sensor.ts';
import { fakeDht, type OpLog } from './fakes.ts';
import { settle } from './i2c-fakes.ts';

/**
 * What node-dht-sensor hands JavaScript for a 40-bit AM2302 frame: its C code's float arithmetic
 * (value / 10.0 in float32, sign bit 15 of the temperature word), replayed here with Math.fround.
 */
function libraryAnswer(frame: number[]): { t: number; h: number } {
  expect((frame[0]! + frame[1]! + frame[2]! + frame[3]!) & 0xff).toBe(frame[4]); // the frame's checksum byte
  const h = Math.fround(Math.fround(frame[0]! * 256 + frame[1]!) / 10);
  let t = Math.fround(Math.fround((frame[2]! & 0x7f) * 256 + frame[3]!) / 10);
  if (frame[2]! & 0x80) t = -t;
  return { t, h };
}

describe('DHT22 / AM2302 conversion', () => {
  it("reads the datasheet's example frame 0x0292 0x010D 0xA2 as 65.8 %RH and 26.9 °C", () => {
    const { t, h } = libraryAnswer([0x02, 0x92, 0x01, 0x0d, 0xa2]);
    expect(h).not.toBe(65.8); // float32 noise from the library
    expect(validateDht22(t, h)).toEqual({ temperatureC: 26.9, humidityPct: 65.8 });
  });
  it("reads the datasheet's negative temperature 0x8065 as -10.1 °C", () => {
    const { t, h } = libraryAnswer([0x02, 0x92, 0x80, 0x65, (0x02 + 0x92 + 0x80 + 0x65) & 0xff]);
    expect(validateDht22(t, h).temperatureC).toBe(-10.1);
  });
  it.each([
    [-40.1, 50, /outside DHT22 range -40..80 °C/],
    [80.1, 50, /outside DHT22 range/],
    [20, 0, /humidity 0 %RH outside/],
    [0, 0, /humidity 0 %RH outside/],
    [20, 100.1, /humidity 100.1 %RH/],
    [Number.NaN, 50, /non-numeric/],
  ])('refuses %s °C / %s %%RH', (t, h, why) => {
    expect(() => validateDht22(t, h, 'air')).toThrow(SensorReadError);
    expect(() => validateDht22(t, h, 'air')).toThrow(why);
  });
  it('accepts the ends of the datasheet range', () => {
    expect(validateDht22(-40, 1)).toEqual({ temperatureC: -40, humidityPct: 1 });
    expect(validateDht22(80, 99.9)).toEqual({ temperatureC: 80, humidityPct: 99.9 });
  });
});

describe('DHT22 shell', () => {
  it('reads as sensor type 22, at least 2 s apart, and refuses the library cache repeated within 3 s', async () => {
    const log: OpLog = [];
    const clock = new ManualClock();
    const frame = libraryAnswer([0x02, 0x92, 0x01, 0x0d, 0xa2]);
    const dht = new DhtSensor({ dht: fakeDht(log, [frame]), model: DHT22_MODEL, pin: 17, clock, monotonicMs: () => clock.now(), sensor: 'air-west' });
    expect(await dht.read()).toEqual({ temperatureC: 26.9, humidityPct: 65.8 });
    const second = dht.read();
    await Promise.resolve();
    expect(log).toEqual(['dht:maxRetries 0', 'dht:read 22 17']); // the second waits out the 2 s
    await expect(settle(clock, second, 2100, 10)).rejects.toThrow(/^air-west: no fresh reading/);
    expect(log).toEqual(['dht:maxRetries 0', 'dht:read 22 17', 'dht:read 22 17']);
    clock.advance(2000); // 4.1 s after the fresh one: past the library's cache
    expect(await dht.read()).toEqual({ temperatureC: 26.9, humidityPct: 65.8 });
  });

  it('a native error names the sensor and its pin; a bad pin is refused at construction', async () => {
    const clock = new ManualClock();
    const dht = new DhtSensor({ dht: fakeDht([], [new Error('failed to read sensor')]), model: DHT22_MODEL, pin: 17, clock, sensor: 'air-west' });
    await expect(dht.read()).rejects.toThrow('air-west: DHT22 on GPIO 17: failed to read sensor');
    expect(() => new DhtSensor({ dht: fakeDht([], []), model: DHT22_MODEL, pin: 28, clock })).toThrow('DHT22 pin must be BCM 0-27, got 28');
  });
});

import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../common/clock.ts';
import { SensorReadError } from '../../../../drivers/types.ts';
import { sensirionBytes, sensirionCrc8, sensirionWords } from '../../../../drivers/rpi/sensirion-crc.ts';
import { decodeSht3x, sht3xHumidityPct, sht3xTemperatureC, SHT3X_MEASUREMENT_MS } from '../../../../drivers/rpi/sht3x-convert.ts';
import { Sht3xSensor } from '../../../../drivers/rpi/sht3x.ts';
import type { OpLog } from './fakes.ts';
import { fakeSht3x } from './i2c-chips.ts';
import { fakeI2c, settle } from './i2c-fakes.ts';

describe('Sensirion CRC-8', () => {
  it("gives the datasheets' worked example: CRC(0xBEEF) = 0x92", () => {
    expect(sensirionCrc8([0xbe, 0xef])).toBe(0x92);
  });
  it('checks every word of an answer and refuses a flipped bit', () => {
    expect(sensirionWords([0xbe, 0xef, 0x92, 0x66, 0x66, 0x93], 2, 's')).toEqual([0xbeef, 0x6666]);
    expect(() => sensirionWords([0xbe, 0xee, 0x92], 1, 's')).toThrow(SensorReadError);
    expect(() => sensirionWords([0xbe, 0xef, 0x93], 1, 's')).toThrow(/bad CRC on word 0 \(0xbeef: got 0x93, expected 0x92\)/);
    expect(() => sensirionWords([0xbe, 0xef], 1, 's')).toThrow(/short answer/);
  });
});

describe('SHT3x conversion (datasheet §4.13)', () => {
  it('maps the raw range onto -45..130 °C and 0..100 %RH', () => {
    expect(sht3xTemperatureC(0)).toBe(-45);
    expect(sht3xTemperatureC(65535)).toBe(130);
    expect(sht3xTemperatureC(0x6666)).toBeCloseTo(25, 10); // 26214 / 65535 = 0.4 exactly
    expect(sht3xHumidityPct(0)).toBe(0);
    expect(sht3xHumidityPct(65535)).toBe(100);
    expect(sht3xHumidityPct(0x8000)).toBeCloseTo(50.0008, 4);
  });
  it('decodes a raw answer with its CRCs and rejects a bad one', () => {
    const raw = sensirionBytes([0x6666, 0x8000]);
    expect(raw).toEqual([0x66, 0x66, 0x93, 0x80, 0x00, 0xa2]);
    const r = decodeSht3x(raw, 'air');
    expect(r.temperatureC).toBeCloseTo(25, 10);
    expect(r.humidityPct).toBeCloseTo(50.0008, 4);
    raw[4] = raw[4]! ^ 0x01;
    expect(() => decodeSht3x(raw, 'air')).toThrow(/air: bad CRC on word 1/);
  });
});

describe('SHT3x shell', () => {
  it('probes at open, then measures single-shot and waits out the measurement before reading', async () => {
    const log: OpLog = [];
    const clock = new ManualClock();
    const chip = fakeSht3x(clock, [sensirionBytes([0x6666, 0x8000])]);
    const sht = await settle(clock, Sht3xSensor.open({ i2c: fakeI2c(log, { 0x44: chip }), bus: 1, address: 0x44, clock, sensor: 'air-1' }), 5);
    expect(log).toEqual(['i2c:open 1', 'i2c:1:44 write 30 93', 'i2c:1:44 write f3 2d', 'i2c:1:44 read 3']);
    const reading = await settle(clock, sht.read(), SHT3X_MEASUREMENT_MS + 2);
    expect(reading.temperatureC).toBeCloseTo(25, 10);
    expect(reading.humidityPct).toBeCloseTo(50.0008, 4);
    expect(log.slice(4)).toEqual(['i2c:1:44 write 24 00', 'i2c:1:44 read 6']);
  });

  it('turns a bad CRC into a SensorReadError, never a value, and reads again next time', async () => {
    const clock = new ManualClock();
    const bad = sensirionBytes([0x6666, 0x8000]);
    bad[2] = bad[2]! ^ 0xff;
    const sht = await settle(clock, Sht3xSensor.open({ i2c: fakeI2c([], { 0x45: fakeSht3x(clock, [bad, sensirionBytes([0x6666, 0x8000])]) }), bus: 1, address: 0x45, clock, sensor: 'air-1' }), 5);
    await expect(settle(clock, sht.read(), 20)).rejects.toThrow(/air-1: bad CRC on word 0/);
    expect((await settle(clock, sht.read(), 20)).temperatureC).toBeCloseTo(25, 10);
  });

  it('refuses the all-zero answer of a chip held in reset', async () => {
    const clock = new ManualClock();
    const sht = await settle(clock, Sht3xSensor.open({ i2c: fakeI2c([], { 0x44: fakeSht3x(clock, [sensirionBytes([0, 0])]) }), bus: 1, address: 0x44, clock }), 5);
    await expect(settle(clock, sht.read(), 20)).rejects.toThrow(/-45.00 °C outside the SHT3x range/);
  });

  it('fails to open when no chip answers, and closes the bus again', async () => {
    const clock = new ManualClock();
    const i2c = fakeI2c([], {});
    await expect(settle(clock, Sht3xSensor.open({ i2c, bus: 1, address: 0x44, clock }), 5)).rejects.toThrow(
      /no SHT3X answers at 0x44 on I2C bus 1 \(check the wiring with i2cdetect -y 1\)/,
    );
    expect(i2c.openBuses).toBe(0);
  });

  it('checks its arguments at the boundary, naming the bad value', async () => {
    const clock = new ManualClock();
    const i2c = fakeI2c([], {});
    await expect(Sht3xSensor.open({ i2c, bus: 1, address: 0x48, clock })).rejects.toThrow('SHT3X I2C address must be 0x44 or 0x45, got 0x48');
    await expect(Sht3xSensor.open({ i2c, bus: -1, address: 0x44, clock })).rejects.toThrow('SHT3X I2C bus must be an integer 0-255, got -1');
    await expect(Sht3xSensor.open({ i2c, bus: 1.5, address: 0x44, clock })).rejects.toThrow(/got 1.5/);
  });
});

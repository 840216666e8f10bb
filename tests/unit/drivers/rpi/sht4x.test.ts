import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../common/clock.ts';
import { SensorReadError } from '../../../../drivers/types.ts';
import { sensirionBytes } from '../../../../drivers/rpi/sensirion-crc.ts';
import { decodeSht4x, sht4xHumidityPct, sht4xTemperatureC, SHT4X_MEASUREMENT_MS } from '../../../../drivers/rpi/sht4x-convert.ts';
import { Sht4xSensor } from '../../../../drivers/rpi/sht4x.ts';
import type { OpLog } from './fakes.ts';
import { fakeSht4x } from './i2c-chips.ts';
import { fakeI2c, settle } from './i2c-fakes.ts';

describe('SHT4x conversion (datasheet §4.6)', () => {
  it('T = -45 + 175·S/65535', () => {
    expect(sht4xTemperatureC(0)).toBe(-45);
    expect(sht4xTemperatureC(65535)).toBe(130);
    expect(sht4xTemperatureC(0x6666)).toBeCloseTo(25, 10);
  });
  it('RH = -6 + 125·S/65535, cropped to 0..100 %', () => {
    expect(sht4xHumidityPct(0x8000)).toBeCloseTo(56.501, 3);
    expect(sht4xHumidityPct(3146)).toBeCloseTo(0.0006, 3); // 6/125 of full scale is 0 %RH
    expect(sht4xHumidityPct(0)).toBe(0); // -6 % on the stretched scale
    expect(sht4xHumidityPct(65535)).toBe(100); // 119 % on the stretched scale
    expect(sht4xHumidityPct(60000)).toBe(100);
  });
  it('decodes a raw answer; a bad CRC or a chip in reset is a SensorReadError', () => {
    const r = decodeSht4x(sensirionBytes([0x6666, 0x8000]), 'air');
    expect(r.temperatureC).toBeCloseTo(25, 10);
    expect(r.humidityPct).toBeCloseTo(56.501, 3);
    const bad = sensirionBytes([0x6666, 0x8000]);
    bad[5] = bad[5]! ^ 0x80;
    expect(() => decodeSht4x(bad, 'air')).toThrow(SensorReadError);
    expect(() => decodeSht4x(sensirionBytes([0xffff, 0x8000]), 'air')).toThrow(/130.00 °C outside/);
  });
});

describe('SHT4x shell', () => {
  it('reads the serial number at open, then measures with high precision after its measurement time', async () => {
    const log: OpLog = [];
    const clock = new ManualClock();
    const i2c = fakeI2c(log, { 0x44: fakeSht4x(clock, sensirionBytes([0x6666, 0x8000])) });
    const sht = await settle(clock, Sht4xSensor.open({ i2c, bus: 1, address: 0x44, clock, sensor: 'air-2' }), 3);
    expect(sht.serialNumber).toBe(0x12345678);
    const r = await settle(clock, sht.read(), SHT4X_MEASUREMENT_MS + 1);
    expect(r.humidityPct).toBeCloseTo(56.501, 3);
    expect(log).toEqual(['i2c:open 1', 'i2c:1:44 write 89', 'i2c:1:44 read 6', 'i2c:1:44 write fd', 'i2c:1:44 read 6']);
    await sht.close();
    expect(i2c.openBuses).toBe(0);
  });

  it('a bad CRC from the chip is a failed read naming the sensor', async () => {
    const clock = new ManualClock();
    const answer = sensirionBytes([0x6666, 0x8000]);
    answer[2] = answer[2]! ^ 0x01;
    const sht = await settle(clock, Sht4xSensor.open({ i2c: fakeI2c([], { 0x44: fakeSht4x(clock, answer) }), bus: 1, address: 0x44, clock, sensor: 'air-2' }), 3);
    await expect(settle(clock, sht.read(), 12)).rejects.toThrow(/^air-2: bad CRC on word 0/);
  });

  it('a missing chip or bus fails at open, saying which; bad arguments name the value', async () => {
    const clock = new ManualClock();
    await expect(settle(clock, Sht4xSensor.open({ i2c: fakeI2c([], {}), bus: 1, address: 0x44, clock }), 3)).rejects.toThrow(/no SHT4X answers at 0x44 on I2C bus 1/);
    await expect(Sht4xSensor.open({ i2c: fakeI2c([], {}), bus: 3, address: 0x44, clock })).rejects.toThrow(
      "cannot open I2C bus 3 for the SHT4X (/dev/i2c-3; is I2C enabled?): ENOENT: no such file or directory, open '/dev/i2c-3'",
    );
    await expect(Sht4xSensor.open({ i2c: fakeI2c([], {}), bus: 1, address: 0x77, clock })).rejects.toThrow('SHT4X I2C address must be 0x44, 0x45 or 0x46, got 0x77');
  });
});

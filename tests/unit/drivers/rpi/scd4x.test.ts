import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../common/clock.ts';
import { SensorReadError } from '../../../../drivers/types.ts';
import { sensirionBytes } from '../../../../drivers/rpi/sensirion-crc.ts';
import {
  decodeScd4xMeasurement,
  scd4xDataReady,
  scd4xHumidityPct,
  scd4xSerialNumber,
  scd4xTemperatureC,
} from '../../../../drivers/rpi/scd4x-convert.ts';
import { Scd4xSensor } from '../../../../drivers/rpi/scd4x.ts';
import type { OpLog } from './fakes.ts';
import { fakeScd41, SCD4X_DATASHEET_EXAMPLE as DATASHEET_EXAMPLE } from './i2c-chips.ts';
import { fakeI2c, settle } from './i2c-fakes.ts';

describe('SCD4x conversion', () => {
  it("decodes the datasheet's read_measurement example, CRCs included", () => {
    const v = decodeScd4xMeasurement(DATASHEET_EXAMPLE, 'co2');
    expect(v.co2Ppm).toBe(500);
    expect(v.temperatureC).toBeCloseTo(25.0, 2);
    expect(v.humidityPct).toBeCloseTo(37.0, 2);
  });
  it('T = -45 + 175·S/65535, RH = 100·S/65535', () => {
    expect(scd4xTemperatureC(0)).toBe(-45);
    expect(scd4xTemperatureC(65535)).toBe(130);
    expect(scd4xHumidityPct(65535)).toBe(100);
  });
  it('a bad CRC or a CO2 value past the output range is a failed read', () => {
    const bad = [...DATASHEET_EXAMPLE];
    bad[2] = 0x7b;
    expect(() => decodeScd4xMeasurement(bad, 'co2')).toThrow(SensorReadError);
    expect(() => decodeScd4xMeasurement(bad, 'co2')).toThrow(/co2: bad CRC on word 0/);
    expect(() => decodeScd4xMeasurement(sensirionBytes([40001, 0x6667, 0x5eb9]), 'co2')).toThrow(/40001 ppm outside/);
  });
  it('data ready unless the 11 low bits of the status are 0; the serial number is the three words', () => {
    expect(scd4xDataReady(0x8006)).toBe(true);
    expect(scd4xDataReady(0x8000)).toBe(false);
    expect(scd4xDataReady(0x0000)).toBe(false);
    expect(scd4xSerialNumber([0xf896, 0x9f07, 0x3bb2])).toBe(0xf8969f073bb2);
  });
});

async function openScd(log: OpLog = [], measurements?: number[][]) {
  const clock = new ManualClock();
  const chip = fakeScd41(clock, measurements);
  const i2c = fakeI2c(log, { 0x62: chip });
  const scd = await settle(clock, Scd4xSensor.open({ i2c, bus: 1, clock, monotonicMs: () => clock.now(), sensor: 'co2-1' }), 510);
  return { clock, chip, i2c, scd };
}

describe('SCD4x shell', () => {
  it('stops a measurement left running, reads the serial number, starts periodic measurement', async () => {
    const log: OpLog = [];
    const { scd, chip } = await openScd(log);
    expect(scd.serialNumber).toBe(0xf8969f073bb2);
    expect(chip.periodic).toBe(true);
    expect(log).toEqual(['i2c:open 1', 'i2c:1:62 write 3f 86', 'i2c:1:62 write 36 82', 'i2c:1:62 read 9', 'i2c:1:62 write 21 b1']);
  });

  it('has nothing before the first 5 s period, then a new value once per period, the last one flagged not new in between', async () => {
    const second = sensirionBytes([812, 0x6667, 0x5eb9]);
    const { scd, clock } = await openScd([], [DATASHEET_EXAMPLE, second]);
    await expect(settle(clock, scd.read(), 5)).rejects.toThrow(/^co2-1: no measurement yet/);
    clock.advance(5000);
    const first = await settle(clock, scd.read(), 5);
    expect(first).toMatchObject({ isNew: true, ageMs: 0, values: { co2Ppm: 500 } });
    clock.advance(2000);
    expect(await settle(clock, scd.read(), 5)).toMatchObject({ isNew: false, ageMs: expect.closeTo(2005, -1), values: { co2Ppm: 500 } });
    clock.advance(3000);
    expect(await settle(clock, scd.read(), 5)).toMatchObject({ isNew: true, values: { co2Ppm: 812 } });
  });

  it('a chip that stops delivering turns the old value into a failed read after three periods', async () => {
    const { scd, clock, chip } = await openScd();
    clock.advance(5000);
    await settle(clock, scd.read(), 5);
    chip.write!([0x3f, 0x86]); // a brown-out leaves it idle
    clock.advance(14_000);
    expect((await settle(clock, scd.read(), 5)).isNew).toBe(false);
    clock.advance(2000);
    await expect(settle(clock, scd.read(), 5)).rejects.toThrow(/no new measurement for 16 s/);
  });

  it('a bad CRC in a measurement is a failed read, not a value', async () => {
    const bad = [...DATASHEET_EXAMPLE];
    bad[5] = 0x00;
    const { scd, clock } = await openScd([], [bad]);
    clock.advance(5000);
    await expect(settle(clock, scd.read(), 5)).rejects.toThrow(/co2-1: bad CRC on word 1/);
  });

  it('stops periodic measurement on close and closes the bus', async () => {
    const log: OpLog = [];
    const { scd, chip, i2c } = await openScd(log);
    await scd.close();
    expect(chip.periodic).toBe(false);
    expect(log.slice(-2)).toEqual(['i2c:1:62 write 3f 86', 'i2c:close 1']);
    expect(i2c.openBuses).toBe(0);
  });

  it('refuses any address but 0x62 and a chip that does not answer', async () => {
    const clock = new ManualClock();
    await expect(Scd4xSensor.open({ i2c: fakeI2c([], {}), bus: 1, address: 0x61, clock })).rejects.toThrow('SCD4X I2C address must be 0x62, got 0x61');
    await expect(settle(clock, Scd4xSensor.open({ i2c: fakeI2c([], {}), bus: 1, clock }), 510)).rejects.toThrow(/no SCD4X answers at 0x62 on I2C bus 1/);
  });
});

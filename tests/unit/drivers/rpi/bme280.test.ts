import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../common/clock.ts';
import { SensorReadError } from '../../../../drivers/types.ts';
import {
  bme280HumidityPct,
  bme280MeasurementTimeMs,
  bme280PressurePa,
  bme280RawValues,
  bme280Temperature,
  ctrlMeasForced,
  decodeBme280,
  parseBme280Calibration,
  WEATHER_MONITORING,
  type Bme280Calibration,
} from '../../../../drivers/rpi/bme280-convert.ts';
import { Bme280Sensor } from '../../../../drivers/rpi/bme280.ts';
import type { OpLog } from './fakes.ts';
import { BME280_ADC_P as ADC_P, BME280_ADC_T as ADC_T, BME280_EXAMPLE as EXAMPLE, calibrationBytes, dataBytes, fakeBme280 } from './i2c-chips.ts';
import { fakeI2c, settle } from './i2c-fakes.ts';

/** BME280 datasheet §4.2.3, humidity in 32-bit integers (Q22.10 %RH): an independent check of §8.1. */
function humidityInt32(adcH: number, tFine: number, c: Bme280Calibration): number {
  let v = tFine - 76800;
  v = ((((adcH << 14) - (c.digH4 << 20) - c.digH5 * v) + 16384) >> 15) *
    (((((((v * c.digH6) >> 10) * (((v * c.digH3) >> 11) + 32768)) >> 10) + 2097152) * c.digH2 + 8192) >> 14);
  v = v - (((((v >> 15) * (v >> 15)) >> 7) * c.digH1) >> 4);
  v = Math.min(419430400, Math.max(0, v));
  return (v >> 12) / 1024;
}

/** BME280 datasheet §4.2.3, pressure in 64-bit integers (Q24.8 Pa). */
function pressureInt64(adcP: number, tFine: number, c: Bme280Calibration): number {
  const B = BigInt;
  let var1 = B(tFine) - 128000n;
  let var2 = var1 * var1 * B(c.digP6);
  var2 = var2 + ((var1 * B(c.digP5)) << 17n);
  var2 = var2 + (B(c.digP4) << 35n);
  var1 = ((var1 * var1 * B(c.digP3)) >> 8n) + ((var1 * B(c.digP2)) << 12n);
  var1 = (((1n << 47n) + var1) * B(c.digP1)) >> 33n;
  let p = 1048576n - B(adcP);
  p = (((p << 31n) - var2) * 3125n) / var1;
  var1 = (B(c.digP9) * (p >> 13n) * (p >> 13n)) >> 25n;
  var2 = (B(c.digP8) * p) >> 19n;
  p = ((p + var1 + var2) >> 8n) + (B(c.digP7) << 4n);
  return Number(p) / 256;
}

describe('BME280 compensation', () => {
  it("gives the BMP280 datasheet's worked example: adc_T 519888 -> 25.08 °C (t_fine 128422), adc_P 415148 -> 100653 Pa", () => {
    const { temperatureC, tFine } = bme280Temperature(ADC_T, EXAMPLE);
    expect(temperatureC).toBeCloseTo(25.08, 2);
    expect(tFine).toBe(128422);
    const pa = bme280PressurePa(ADC_P, tFine, EXAMPLE);
    expect(pa).toBeCloseTo(100653.27, 1);
    expect(Math.round(pa)).toBe(100653);
    expect(pa).toBeCloseTo(pressureInt64(ADC_P, tFine, EXAMPLE), 1);
  });

  it('humidity in double precision agrees with the datasheet integer formula, and is clamped to 0..100', () => {
    const { tFine } = bme280Temperature(ADC_T, EXAMPLE);
    for (const adcH of [20000, 30000, 35000, 40000]) {
      expect(bme280HumidityPct(adcH, tFine, EXAMPLE)).toBeCloseTo(humidityInt32(adcH, tFine, EXAMPLE), 2);
    }
    expect(bme280HumidityPct(30000, tFine, EXAMPLE)).toBeCloseTo(55.0, 2);
    expect(bme280HumidityPct(0, tFine, EXAMPLE)).toBe(0);
    expect(bme280HumidityPct(65535, tFine, EXAMPLE)).toBe(100);
  });

  it('parses the calibration registers, the shared nibbles of dig_H4/dig_H5 and signed values included', () => {
    const { a, b } = calibrationBytes(EXAMPLE);
    expect(a).toHaveLength(26);
    expect(b.slice(3, 6)).toEqual([0x13, 0x29, 0x03]); // dig_H4 0x139, dig_H5 0x032
    expect(parseBme280Calibration(a, b)).toEqual(EXAMPLE);
    const negative = { ...EXAMPLE, digH4: -5, digH5: -300, digH6: -7, digH2: -2 };
    const n = calibrationBytes(negative);
    expect(parseBme280Calibration(n.a, n.b)).toEqual(negative);
  });

  it('measurement time follows §9.1: 8 ms typical, 9.3 ms maximum at x1; 112.8 ms at x16', () => {
    expect(bme280MeasurementTimeMs(WEATHER_MONITORING)).toEqual({ typMs: 8, maxMs: expect.closeTo(9.3, 10) });
    expect(bme280MeasurementTimeMs({ osrsT: 5, osrsP: 5, osrsH: 5 }).maxMs).toBeCloseTo(112.8, 10);
    expect(bme280MeasurementTimeMs({ osrsT: 1, osrsP: 0, osrsH: 0 })).toEqual({ typMs: 3, maxMs: expect.closeTo(3.55, 10) });
    expect(ctrlMeasForced(WEATHER_MONITORING)).toBe(0x25);
  });

  it('decodes the 8 data bytes, to hPa, and refuses skipped or impossible measurements', () => {
    expect(bme280RawValues(dataBytes(ADC_P, ADC_T, 30000))).toEqual({ adcP: ADC_P, adcT: ADC_T, adcH: 30000 });
    const r = decodeBme280(dataBytes(ADC_P, ADC_T, 30000), EXAMPLE, 'air');
    expect(r.pressureHpa).toBeCloseTo(1006.53, 2);
    expect(r.temperatureC).toBeCloseTo(25.08, 2);
    expect(() => decodeBme280(dataBytes(ADC_P, ADC_T, 0x8000), EXAMPLE, 'air')).toThrow(/skipped a measurement/);
    expect(() => decodeBme280(dataBytes(0x80000, ADC_T, 30000), EXAMPLE, 'air')).toThrow(SensorReadError);
    expect(() => decodeBme280(dataBytes(0, ADC_T, 30000), EXAMPLE, 'air')).toThrow(/outside the BME280 range 300..1100 hPa/);
  });
});

describe('BME280 shell', () => {
  it('checks the chip id, resets, reads the calibration at open; each read is one forced measurement', async () => {
    const log: OpLog = [];
    const clock = new ManualClock();
    const chip = fakeBme280(clock);
    const bme = await settle(clock, Bme280Sensor.open({ i2c: fakeI2c(log, { 0x76: chip }), bus: 1, address: 0x76, clock, sensor: 'bme' }), 10);
    expect(bme.calibration).toEqual(EXAMPLE);
    expect(log).toEqual([
      'i2c:open 1',
      'i2c:1:76 readReg d0 1',
      'i2c:1:76 writeReg e0 b6',
      'i2c:1:76 readReg f3 1',
      'i2c:1:76 readReg 88 26',
      'i2c:1:76 readReg e1 7',
      'i2c:1:76 writeReg f5 00',
    ]);
    log.length = 0;
    const r = await settle(clock, bme.read(), 12);
    expect(r.temperatureC).toBeCloseTo(25.08, 2);
    expect(r.pressureHpa).toBeCloseTo(1006.53, 2);
    expect(r.humidityPct).toBeCloseTo(55.0, 2);
    expect(log).toEqual(['i2c:1:76 writeReg f2 01', 'i2c:1:76 writeReg f4 25', 'i2c:1:76 readReg f3 1', 'i2c:1:76 readReg f7 8']);
    expect(chip.measurements).toBe(1);
  });

  it('refuses a BMP280 (no humidity) and an absent chip at open, closing the bus', async () => {
    const clock = new ManualClock();
    const i2c = fakeI2c([], { 0x77: fakeBme280(clock, { chipId: 0x58 }) });
    await expect(settle(clock, Bme280Sensor.open({ i2c, bus: 1, address: 0x77, clock }), 10)).rejects.toThrow(
      /no BME280 answers at 0x77 on I2C bus 1 .*chip id 0x58 is a BMP280 \(no humidity sensor\)/,
    );
    await expect(settle(clock, Bme280Sensor.open({ i2c, bus: 1, address: 0x76, clock }), 10)).rejects.toThrow(/no BME280 answers at 0x76/);
    expect(i2c.openBuses).toBe(0);
    await expect(Bme280Sensor.open({ i2c, bus: 1, address: 0x44, clock })).rejects.toThrow('BME280 I2C address must be 0x76 or 0x77, got 0x44');
  });

  it('an impossible measurement is a SensorReadError naming the sensor', async () => {
    const clock = new ManualClock();
    const bme = await settle(clock, Bme280Sensor.open({ i2c: fakeI2c([], { 0x76: fakeBme280(clock, { adcH: 0x8000 }) }), bus: 1, address: 0x76, clock, sensor: 'bme' }), 10);
    await expect(settle(clock, bme.read(), 12)).rejects.toThrow(/^bme: the BME280 skipped a measurement/);
  });
});

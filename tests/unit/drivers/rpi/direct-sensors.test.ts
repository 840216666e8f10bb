import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SENSOR_KINDS } from '../../../../common/catalogue.ts';
import { ManualClock } from '../../../../common/clock.ts';
import { sensirionBytes } from '../../../../drivers/rpi/sensirion-crc.ts';
import { directSensorOpener, type DirectSensorOptions } from '../../../../drivers/rpi/direct-sensors.ts';
import { fakeDht, type OpLog } from './fakes.ts';
import { fakeBme280, fakeScd41, fakeSht3x, fakeSht4x } from './i2c-chips.ts';
import { fakeI2c, settle, type FakeI2cChip } from './i2c-fakes.ts';

const KERNEL_EXAMPLE = '72 01 4b 46 7f ff 0e 10 57 : crc=57 YES\n72 01 4b 46 7f ff 0e 10 57 t=23125\n';

const INSTANCES: DirectSensorOptions[] = [
  { sensorId: 'air-dht22', name: 'Bench DHT22', kind: 'DHT22', pin: 17 },
  { sensorId: 'air-sht3x', name: 'North SHT31', kind: 'SHT3X', bus: 1, address: 0x45 },
  { sensorId: 'air-sht4x', name: 'South SHT40', kind: 'SHT4X', bus: 1, address: 0x44 },
  { sensorId: 'air-bme', name: 'Ridge BME280', kind: 'BME280', bus: 1, address: 0x76 },
  { sensorId: 'co2', name: 'CO2 SCD41', kind: 'SCD4X', bus: 1, address: 0x62 },
  { sensorId: 'root-1', name: 'Bed 1 root zone', kind: 'DS18B20', w1Id: '28-0316a27968ff' },
];

describe('direct sensor instances on the real drivers', () => {
  const roots: string[] = [];
  afterEach(async () => {
    await Promise.all(roots.splice(0).map((r) => rm(r, { recursive: true, force: true })));
  });

  async function rig(chips?: (clock: ManualClock) => Record<number, FakeI2cChip>, dhtRefusal: string | null = null) {
    const log: OpLog = [];
    const clock = new ManualClock();
    const w1DevicesRoot = await mkdtemp(join(tmpdir(), 'w1-'));
    roots.push(w1DevicesRoot);
    await mkdir(join(w1DevicesRoot, '28-0316a27968ff'));
    await writeFile(join(w1DevicesRoot, '28-0316a27968ff', 'w1_slave'), KERNEL_EXAMPLE);
    const i2c = fakeI2c(log, chips?.(clock) ?? {
      0x45: fakeSht3x(clock, [sensirionBytes([0x6666, 0x8000])]),
      0x44: fakeSht4x(clock, sensirionBytes([0x6666, 0x8000])),
      0x76: fakeBme280(clock),
      0x62: fakeScd41(clock),
    });
    const loads = { i2c: 0, dht: 0 };
    const open = directSensorOpener({
      clock,
      dhtRefusal,
      w1DevicesRoot,
      loadI2c: async () => (loads.i2c++, i2c),
      loadDht: async () => (loads.dht++, fakeDht(log, [{ t: 26.9, h: 65.8 }])),
    });
    return { log, clock, i2c, loads, open };
  }

  it('opens every direct kind as a SensorInstanceDriver whose reads carry exactly its kind’s quantities', async () => {
    const { clock, open, loads, i2c } = await rig();
    const opened = [];
    for (const options of INSTANCES) opened.push(await settle(clock, open(options), 520));
    expect(loads).toEqual({ i2c: 1, dht: 1 }); // native packages loaded once
    clock.advance(5000); // the SCD41's first period
    for (const [i, { driver }] of opened.entries()) {
      const options = INSTANCES[i]!;
      const spec = SENSOR_KINDS[options.kind];
      expect(driver).toMatchObject({ sensorId: options.sensorId, name: options.name, kind: options.kind, quantities: spec.quantities });
      expect(driver.retryDelaysMs).toEqual(spec.retryDelaysMs);
      expect(driver.cacheWindowMs).toBe(spec.cacheWindowMs);
      const values = await settle(clock, driver.read(), 20);
      expect(Object.keys(values).sort()).toEqual([...spec.quantities].sort());
      for (const v of Object.values(values)) expect(Number.isFinite(v)).toBe(true);
    }
    for (const o of opened) await o.close();
    expect(i2c.openBuses).toBe(0);
  });

  it('reads the datasheet values through each driver', async () => {
    const { clock, open } = await rig();
    const read = async (options: DirectSensorOptions) => settle(clock, (await settle(clock, open(options), 520)).driver.read(), 20);
    expect(await read(INSTANCES[0]!)).toEqual({ temperatureC: 26.9, humidityPct: 65.8 });
    expect((await read(INSTANCES[1]!)).temperatureC).toBeCloseTo(25, 10);
    expect((await read(INSTANCES[3]!)).pressureHpa).toBeCloseTo(1006.53, 2);
    expect(await read(INSTANCES[5]!)).toEqual({ rootTemperatureC: 23.125 });
  });

  it('the SCD4x between two measurements answers its last one; a bad CRC is a failed read', async () => {
    const bad = sensirionBytes([600, 0x6667, 0x5eb9]);
    bad[8] = bad[8]! ^ 0x10;
    const { clock, open } = await rig((c) => ({ 0x62: fakeScd41(c, [sensirionBytes([500, 0x6667, 0x5eb9]), bad]) }));
    const { driver } = await settle(clock, open(INSTANCES[4]!), 520);
    clock.advance(5000);
    expect((await settle(clock, driver.read(), 5)).co2Ppm).toBe(500);
    clock.advance(2000);
    expect((await settle(clock, driver.read(), 5)).co2Ppm).toBe(500);
    clock.advance(3000);
    await expect(settle(clock, driver.read(), 5)).rejects.toThrow(/^co2: bad CRC on word 2/);
  });

  it('an instance whose chip is absent fails to open with where to look; the others open', async () => {
    const { clock, open, i2c } = await rig((c) => ({ 0x44: fakeSht4x(c, []) }));
    await expect(settle(clock, open(INSTANCES[1]!), 20)).rejects.toThrow(/no SHT3X answers at 0x45 on I2C bus 1/);
    await expect(settle(clock, open(INSTANCES[3]!), 20)).rejects.toThrow(/no BME280 answers at 0x76/);
    await expect(open({ ...INSTANCES[5]!, w1Id: '28-000000000001' } as DirectSensorOptions)).rejects.toThrow(/no DS18B20 28-000000000001/);
    const sht4 = await settle(clock, open(INSTANCES[2]!), 20);
    expect(sht4.driver.sensorId).toBe('air-sht4x');
    expect(i2c.openBuses).toBe(1);
  });

  it('on a board node-dht-sensor cannot drive, a DHT instance fails to open with the reason, without loading the package', async () => {
    const { open, loads } = await rig(undefined, 'Raspberry Pi 5: node-dht-sensor cannot drive its RP1 GPIO chip');
    await expect(open(INSTANCES[0]!)).rejects.toThrow('Raspberry Pi 5: node-dht-sensor cannot drive its RP1 GPIO chip');
    expect(loads.dht).toBe(0);
  });
});

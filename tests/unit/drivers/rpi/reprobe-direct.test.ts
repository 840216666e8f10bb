import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../common/clock.ts';
import type { SensorInstanceOptions } from '../../../../drivers/options.ts';
import { sensirionBytes } from '../../../../drivers/rpi/sensirion-crc.ts';
import { openSensorInstances, type OpenedSensors } from '../../../../drivers/rpi/sensor-instances.ts';
import { fakeDht, type OpLog } from './fakes.ts';
import { fakeSht4x } from './i2c-chips.ts';
import { fakeI2c, type FakeI2cChip } from './i2c-fakes.ts';

/** The kernel's own example of w1_slave (23.125 °C). */
const W1_SLAVE = '72 01 4b 46 7f ff 0e 10 57 : crc=57 YES\n72 01 4b 46 7f ff 0e 10 57 t=23125\n';
const PROBE_ID = '28-0316a27968ff';

const instances: SensorInstanceOptions[] = [
  { sensorId: 'air-north', kind: 'SHT4X', name: 'North', bus: 1, address: 0x44 },
  { sensorId: 'root-1', kind: 'DS18B20', name: 'Bed 1', w1Id: PROBE_ID },
];

const roots: string[] = [];
afterEach(async () => {
  await Promise.all(roots.splice(0).map((root) => rm(root, { recursive: true, force: true })));
});

/**
 * Lets a probe that a timer started run until `done`: the file system answers in real time, the chip's
 * command delays pass on the injected clock, 1 ms a step (at most 400 ms of it, far below the 5 s
 * back-off, so no further probe is due meanwhile).
 */
async function settle(clock: ManualClock, done: () => boolean): Promise<void> {
  for (let step = 0; step < 400 && !done(); step++) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    clock.advance(1);
  }
  expect(done()).toBe(true);
}

async function open(chips: Record<number, FakeI2cChip>, clock: ManualClock, log: OpLog, w1DevicesRoot: string): Promise<{ opened: OpenedSensors; unavailable: string[] }> {
  const unavailable: string[] = [];
  const opened = await openSensorInstances(instances, {
    clock,
    log: () => undefined,
    boardRefusal: null,
    pigpio: null,
    direct: { loadDht: async () => fakeDht(log, []), loadI2c: async () => fakeI2c(log, chips), w1DevicesRoot },
    loadAds1x15: () => Promise.reject(new Error('not used')),
    ok: () => undefined,
    unavailable: (name, reason) => unavailable.push(`${name}: ${reason}`),
  });
  return { opened, unavailable };
}

const statusOf = (opened: OpenedSensors, name: string) => opened.dynamicStatus.map((status) => status()).find((s) => s.name === name);
const read = (opened: OpenedSensors, sensorId: string) => opened.sensors.find((s) => s.sensorId === sensorId)!.read();

describe('I2C and 1-Wire sensors missing at boot', () => {
  it('are probed again with back-off and join when they answer; their failed reads are counted', async () => {
    const clock = new ManualClock();
    const log: OpLog = [];
    const chips: Record<number, FakeI2cChip> = {};
    const w1 = await mkdtemp(join(tmpdir(), 'w1-devices-'));
    roots.push(w1);
    const { opened, unavailable } = await open(chips, clock, log, w1);

    // Both are sensors the sampler reads from the start; health says why they fail and when the next probe is.
    expect(unavailable).toEqual([]);
    expect(opened.sensors.map((s) => s.sensorId)).toEqual(['air-north', 'root-1']);
    expect(statusOf(opened, 'sensor:air-north')).toMatchObject({ available: false, busErrors: 0 });
    expect(statusOf(opened, 'sensor:air-north')!.reason).toMatch(/^SHT4X: .*probed again in 5 s \(attempt 2\)/);
    expect(statusOf(opened, 'sensor:root-1')!.reason).toMatch(/^DS18B20: no DS18B20 28-0316a27968ff on the 1-Wire bus.*probed again in 5 s/);
    await expect(read(opened, 'root-1')).rejects.toThrow(/sensor:root-1 not found/);

    // Still absent at the first retry: the next waits twice as long.
    clock.advance(5000);
    await settle(clock, () => /attempt 3/.test(statusOf(opened, 'sensor:root-1')!.reason ?? '') && /attempt 3/.test(statusOf(opened, 'sensor:air-north')!.reason ?? ''));
    expect(statusOf(opened, 'sensor:root-1')!.reason).toMatch(/probed again in 10 s \(attempt 3\)/);

    // Plugged in: the next probe finds both, and they read without a restart.
    chips[0x44] = fakeSht4x(clock, sensirionBytes([0x6666, 0x8000]));
    await mkdir(join(w1, PROBE_ID));
    await writeFile(join(w1, PROBE_ID, 'w1_slave'), W1_SLAVE);
    clock.advance(10_000);
    await settle(clock, () => statusOf(opened, 'sensor:air-north')!.available && statusOf(opened, 'sensor:root-1')!.available);
    expect(statusOf(opened, 'sensor:air-north')).toEqual({ name: 'sensor:air-north', available: true, reason: null, busErrors: 0 });
    expect(statusOf(opened, 'sensor:root-1')).toEqual({ name: 'sensor:root-1', available: true, reason: null, busErrors: 0 });
    expect(await read(opened, 'root-1')).toEqual({ rootTemperatureC: 23.125 });
    let values: Record<string, number> | null = null;
    void read(opened, 'air-north').then((v) => (values = v as Record<string, number>));
    await settle(clock, () => values !== null);
    expect(values!.temperatureC).toBeTypeOf('number');

    // The probe unplugged: three failed reads in a row and it is probed again, its errors counted.
    await rm(join(w1, PROBE_ID), { recursive: true });
    for (let i = 0; i < 3; i++) await expect(read(opened, 'root-1')).rejects.toThrow();
    await settle(clock, () => !statusOf(opened, 'sensor:root-1')!.available);
    expect(statusOf(opened, 'sensor:root-1')).toMatchObject({ available: false, busErrors: 3 });
    expect(statusOf(opened, 'sensor:root-1')!.reason).toMatch(/stopped answering after 3 errors in a row/);

    await opened.close();
    expect(clock.pendingTimers()).toBe(0);
  });

  it('an I2C package that cannot load is not probed again, and says so', async () => {
    const clock = new ManualClock();
    const unavailable: string[] = [];
    const opened = await openSensorInstances([instances[0]!], {
      clock,
      log: () => undefined,
      boardRefusal: null,
      pigpio: null,
      direct: { loadDht: async () => fakeDht([], []), loadI2c: () => Promise.reject(new Error('Cannot find module i2c-bus')), w1DevicesRoot: '/nonexistent' },
      loadAds1x15: () => Promise.reject(new Error('not used')),
      ok: () => undefined,
      unavailable: (name, reason) => unavailable.push(`${name}: ${reason}`),
    });
    expect(unavailable).toEqual(['sensor:air-north: SHT4X: Cannot find module i2c-bus']);
    expect(opened.sensors).toEqual([]);
    expect(clock.pendingTimers()).toBe(0);
  });
});

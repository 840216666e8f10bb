import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../common/clock.ts';
import { createRaspberryPiHardware, type RaspberryPiDeps } from '../../../../drivers/rpi/hardware.ts';
import { createHardware } from '../../../../drivers/index.ts';
import { outputs, readOne, sensorOf, sensors } from '../fixtures.ts';
import { fakeAds, fakeDht, fakeOnoff, fakePigpio, fakeSysfs, type OpLog } from './fakes.ts';

let pi4Sysfs: string;
beforeAll(async () => {
  pi4Sysfs = await fakeSysfs([
    { label: 'pinctrl-bcm2711', base: 512, ngpio: 58 },
    { label: 'raspberrypi-exp-gpio', base: 570, ngpio: 8 },
  ]);
});
afterAll(async () => {
  await rm(pi4Sysfs, { recursive: true, force: true });
});

function deps(log: OpLog, model: string, overrides: Partial<RaspberryPiDeps> = {}): RaspberryPiDeps {
  return {
    readBoardModel: async () => model,
    gpioSysfsRoot: pi4Sysfs,
    loadOnoff: async () => (log.push('load:onoff'), fakeOnoff(log)),
    loadPigpio: async () => (log.push('load:pigpio'), fakePigpio(log)),
    loadDht: async () => (log.push('load:dht'), fakeDht(log, [{ t: 21, h: 55 }])),
    loadAds1x15: async () => (log.push('load:ads1x15'), fakeAds(log, { 0: 1000, 1: 1500 })),
    ...overrides,
  };
}

const PI4 = 'Raspberry Pi 4 Model B Rev 1.4';
const PI5 = 'Raspberry Pi 5 Model B Rev 1.0';

describe('raspberry-pi hardware composition', () => {
  it('drives every relay OFF and closes the window before touching any sensor', async () => {
    const log: OpLog = [];
    const hw = await createRaspberryPiHardware({ clock: new ManualClock(), sensors, outputs }, deps(log, PI4));
    const firstSensorOp = log.findIndex((l) => l === 'load:dht' || l === 'load:ads1x15');
    const beforeSensors = log.slice(0, firstSensorOp);
    // relay-1 (BCM 17, active-low) at sysfs 529: exported high (= off), then written off again.
    expect(beforeSensors).toContain('onoff:export 529 high');
    expect(beforeSensors).toContain('onoff:write 529 1');
    // relay-6 in the fixture is active-high: exported low.
    expect(beforeSensors).toContain('onoff:export 525 low');
    expect(beforeSensors).toContain('pigpio:servo 18 1000');
    // No relay ever left an OFF level during start-up.
    const relayExports = log.filter((l) => l.startsWith('onoff:export'));
    expect(relayExports).toHaveLength(outputs.filter((o) => o.kind === 'relay').length);
    const offLevel = (gpio: number) => (gpio === 525 ? '0' : '1'); // only relay-6 is active-high
    for (const write of log.filter((l) => l.startsWith('onoff:write'))) {
      const [, gpio, level] = write.split(' ');
      expect(level, write).toBe(offLevel(Number(gpio)));
    }

    expect([...hw.outputs.keys()].sort()).toEqual(outputs.map((o) => o.outputId).sort());
    expect(hw.status().every((s) => s.available)).toBe(true);
    expect(sensorOf(hw, 'dht11')).toBeDefined();
    // 1500 mV at pga 4096 = 12000 counts: halfway between dry 17500 and wet 7500 is 12500, so 55 %.
    expect(await readOne(hw, 'soil', 'soilMoisturePct')).toBeCloseTo(55, 6);
  });

  it('keeps relays on a Pi 5 and says why pigpio and the DHT11 are unavailable', async () => {
    const log: OpLog = [];
    const refuse = async (): Promise<never> => {
      throw new Error('must not be loaded on a Pi 5');
    };
    const hw = await createRaspberryPiHardware(
      { clock: new ManualClock(), sensors, outputs },
      deps(log, PI5, { loadPigpio: refuse, loadDht: refuse }),
    );
    expect(sensorOf(hw, 'dht11')).toBeUndefined();
    expect(sensorOf(hw, 'tank')).toBeUndefined();
    expect(sensorOf(hw, 'ldr')).toBeDefined();
    expect(hw.outputs.has('servo-1')).toBe(false);
    await hw.outputs.get('relay-1')!.set(true);
    expect(log.at(-1)).toBe('onoff:write 529 0');
    const byName = new Map(hw.status().map((s) => [s.name, s]));
    for (const name of ['pigpio', 'sensor:dht11', 'servo', 'sensor:tank']) expect(byName.get(name)?.available).toBe(false);
    expect(byName.get('sensor:dht11')?.reason).toMatch(/Raspberry Pi 5/);
    expect(byName.get('relays')?.available).toBe(true);
  });

  it('runs without a package that fails to load', async () => {
    const log: OpLog = [];
    const hw = await createRaspberryPiHardware(
      { clock: new ManualClock(), sensors, outputs },
      deps(log, PI4, { loadAds1x15: async () => Promise.reject(new Error('Cannot find module i2c-bus')) }),
    );
    expect(sensorOf(hw, 'ldr')).toBeUndefined();
    expect(sensorOf(hw, 'soil')).toBeUndefined();
    expect(sensorOf(hw, 'dht11')).toBeDefined();
    expect(hw.status().find((s) => s.name === 'sensor:ldr')).toEqual({
      name: 'sensor:ldr',
      available: false,
      reason: 'ADS1115_LDR: Cannot find module i2c-bus',
    });
  });

  it('reports relays unavailable when no GPIO chip fits, and still reads sensors', async () => {
    const empty = await fakeSysfs([]);
    const hw = await createRaspberryPiHardware(
      { clock: new ManualClock(), sensors, outputs },
      deps([], PI4, { gpioSysfsRoot: empty }),
    );
    await rm(empty, { recursive: true, force: true });
    expect(hw.outputs.has('relay-1')).toBe(false);
    expect(hw.outputs.has('servo-1')).toBe(true);
    expect(hw.status().find((s) => s.name === 'relays')?.reason).toMatch(/no Raspberry Pi header GPIO chip/);
    expect(sensorOf(hw, 'dht11')).toBeDefined();
  });

  it('close drives outputs safe, releases lines and terminates pigpio', async () => {
    const log: OpLog = [];
    const hw = await createRaspberryPiHardware({ clock: new ManualClock(), sensors, outputs }, deps(log, PI4));
    await hw.outputs.get('relay-4')!.set(true);
    log.length = 0;
    await hw.close();
    expect(log.indexOf('onoff:write 517 1')).toBeLessThan(log.indexOf('onoff:unexport 517'));
    expect(log).toContain('ads:close');
    expect(log.at(-1)).toBe('pigpio:terminate');
  });
});

describe('createHardware', () => {
  it('builds the simulator without loading native packages, outputs safe', async () => {
    const hw = await createHardware({ mode: 'simulator', clock: new ManualClock(), sensors, outputs, simulator: { seed: 1 } });
    expect(hw.simulator.snapshot().activeEffects).toEqual([]);
    expect(typeof (await sensorOf(hw, 'dht11')!.read()).temperatureC).toBe('number');
  });
});

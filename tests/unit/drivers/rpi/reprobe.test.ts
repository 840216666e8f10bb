import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../common/clock.ts';
import type { Ads1x15Constructor, Ads1x15Device } from '../../../../drivers/rpi/native.ts';
import { createRaspberryPiHardware } from '../../../../drivers/rpi/hardware.ts';
import type { Hardware } from '../../../../drivers/types.ts';
import { outputs, readOne, sensorOf, sensors } from '../fixtures.ts';
import { SERVO_SETTLE_MS } from '../../../../drivers/rpi/servo.ts';
import { fakeDht, fakeOnoff, fakePigpio, fakeSysfs, type OpLog } from './fakes.ts';

/**
 * A fake I2C bus with one ADS1115 on it that can be unplugged and plugged back: `present` answers the
 * address (the probe at open), `failReads` makes the next transfers fail as a disturbed bus does (EIO).
 */
function fakeBus(log: OpLog) {
  const bus = { present: false, failReads: 0, opens: 0, closes: 0 };
  const Ads1x15: Ads1x15Constructor = class implements Ads1x15Device {
    i2c: { close(): Promise<void> } | null = null;
    busy = false;
    async openBus() {
      bus.opens++;
      this.i2c = { close: async () => void bus.closes++ };
    }
    async i2cReadWord() {
      if (!bus.present) throw new Error('EREMOTEIO, Remote I/O error');
      return 0x8385;
    }
    async readSingleEnded(o: { channel: number }) {
      log.push(`read ${o.channel}`);
      if (!bus.present || bus.failReads > 0) {
        bus.failReads = Math.max(0, bus.failReads - 1);
        this.busy = true; // as ads1x15 leaves it after a failed transfer
        throw new Error('EIO, i/o error');
      }
      return o.channel === 0 ? 1000 : 1500;
    }
  };
  return { bus, Ads1x15 };
}

let sysfs: string;
beforeAll(async () => {
  sysfs = await fakeSysfs([{ label: 'pinctrl-bcm2711', base: 512, ngpio: 58 }]);
});
afterAll(async () => {
  await rm(sysfs, { recursive: true, force: true });
});

async function hardwareOn(Ads1x15: Ads1x15Constructor, clock: ManualClock, log: OpLog): Promise<Hardware> {
  return createRaspberryPiHardware(
    { clock, sensors, outputs },
    {
      readBoardModel: async () => 'Raspberry Pi 4 Model B Rev 1.4',
      gpioSysfsRoot: sysfs,
      loadOnoff: async () => fakeOnoff(log),
      loadPigpio: async () => fakePigpio(log),
      loadDht: async () => fakeDht(log, [{ t: 21, h: 55 }]),
      loadAds1x15: async () => Ads1x15,
    },
  );
}

const adsStatus = (hw: Hardware) => hw.status().find((s) => s.name === 'ads1115');
/** Lets the probe that a timer started finish. */
const settle = async () => {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe('an ADS1115 that is missing at boot, comes back, and goes away again', () => {
  it('is probed again with back-off, joins when it answers, and is reopened after repeated bus errors', async () => {
    const log: OpLog = [];
    const clock = new ManualClock();
    const { bus, Ads1x15 } = fakeBus(log);
    const hw = await hardwareOn(Ads1x15, clock, log);

    // Missing at boot: the sensors exist, reads say why, health says when the next probe is.
    expect(adsStatus(hw)).toMatchObject({ available: false, busErrors: 0 });
    expect(adsStatus(hw)!.reason).toContain('no ADS1115 answers at 0x48 on I2C bus 1');
    expect(adsStatus(hw)!.reason).toContain('probed again in 5 s (attempt 2)');
    await expect(readOne(hw, 'ldr', 'lightLux')).rejects.toThrow(/ads1115 not found/);
    expect(bus.closes).toBe(1); // each failed probe releases the bus

    // Back-off: 5 s, then 10 s, then 20 s.
    clock.advance(5000);
    await settle();
    expect(bus.opens).toBe(2);
    expect(adsStatus(hw)!.reason).toContain('probed again in 10 s (attempt 3)');
    clock.advance(9000);
    await settle();
    expect(bus.opens).toBe(2);

    // Plugged in: the next probe finds it, and the sensors read without a restart.
    bus.present = true;
    clock.advance(1000);
    await settle();
    expect(bus.opens).toBe(3);
    expect(adsStatus(hw)).toEqual({ name: 'ads1115', available: true, reason: null, busErrors: 0 });
    expect(await readOne(hw, 'soil', 'soilMoisturePct')).toBeTypeOf('number');
    expect(await readOne(hw, 'ldr', 'lightLux')).toBeTypeOf('number');

    // One bus error is counted and recovered by the next read (the busy flag cleared).
    bus.failReads = 1;
    await expect(readOne(hw, 'ldr', 'lightLux')).rejects.toThrow(/EIO/);
    expect(await readOne(hw, 'ldr', 'lightLux')).toBeTypeOf('number');
    expect(adsStatus(hw)).toMatchObject({ available: true, busErrors: 1 });

    // Three in a row: the chip counts as gone, the bus is closed and probed again from 5 s.
    bus.failReads = 3;
    for (let i = 0; i < 3; i++) await expect(readOne(hw, 'soil', 'soilMoisturePct')).rejects.toThrow(/EIO/);
    await settle();
    expect(adsStatus(hw)).toMatchObject({ available: false, busErrors: 4 });
    expect(adsStatus(hw)!.reason).toContain('stopped answering after 3 errors in a row');
    const closesBefore = bus.closes;
    expect(closesBefore).toBeGreaterThanOrEqual(3);
    clock.advance(5000);
    await settle();
    expect(adsStatus(hw)).toMatchObject({ available: true, busErrors: 4 });
    expect(await readOne(hw, 'soil', 'soilMoisturePct')).toBeTypeOf('number');

    await hw.close();
    expect(clock.pendingTimers()).toBe(0);
  });

  it('a package that cannot load is not probed again (nothing would change)', async () => {
    const log: OpLog = [];
    const clock = new ManualClock();
    const hw = await createRaspberryPiHardware(
      { clock, sensors, outputs },
      {
        readBoardModel: async () => 'Raspberry Pi 4 Model B Rev 1.4',
        gpioSysfsRoot: sysfs,
        loadOnoff: async () => fakeOnoff(log),
        loadPigpio: async () => fakePigpio(log),
        loadDht: async () => fakeDht(log, [{ t: 21, h: 55 }]),
        loadAds1x15: async () => Promise.reject(new Error('Cannot find module i2c-bus')),
      },
    );
    expect(sensorOf(hw, 'ldr')).toBeUndefined();
    // The only timer of a start without probes: the window's servo stops its pulses once closed.
    clock.advance(SERVO_SETTLE_MS);
    expect(clock.pendingTimers()).toBe(0);
    await hw.close();
  });
});

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../common/clock.ts';
import { GpiosetOutput, gpiosetMajor, headerChipName, holderCommand, setCommand } from '../../../../drivers/rpi/gpioset-protocol.ts';
import { createRaspberryPiHardware } from '../../../../drivers/rpi/hardware.ts';
import { GPIOSET_ANSWER_TIMEOUT_MS, openChardevRelays } from '../../../../drivers/rpi/relay-chardev.ts';
import { outputs, sensors } from '../fixtures.ts';
import { fakeGpiod } from './fake-gpioset.ts';
import { fakeAds, fakeDht, fakeOnoff, fakePigpio, type OpLog } from './fakes.ts';

const pump = { outputId: 'relay-1', pin: 17, activeLow: true };
const fan = { outputId: 'relay-6', pin: 13, activeLow: false };

describe('gpioset protocol (pure)', () => {
  it('finds the header chip by label, not by number', () => {
    expect(headerChipName('gpiochip0 [raspberrypi-exp-gpio] (8 lines)\ngpiochip4 [pinctrl-rp1] (54 lines)\n')).toBe('gpiochip4');
    expect(() => headerChipName('gpiochip0 [gpio-sim] (8 lines)\n')).toThrow(/no Raspberry Pi header GPIO chip.*gpiochip0 \[gpio-sim\]/);
  });

  it("reads libgpiod's major version", () => {
    expect(gpiosetMajor('gpioset (libgpiod) v2.2.1\n')).toBe(2);
    expect(gpiosetMajor('gpioset (libgpiod) v1.6.3\nCopyright')).toBe(1);
    expect(() => gpiosetMajor('bash: gpioset: command not found')).toThrow(/cannot tell/);
  });

  it('requests every line already at its OFF level, under a parent-death signal', () => {
    const { command, args } = holderCommand('gpiochip0', [pump, fan]);
    expect([command, ...args.slice(0, 3)]).toEqual(['setpriv', '--pdeathsig', 'TERM', '--']);
    expect(args).toContain('--interactive');
    // Active-low pump off = high, active-high fan off = low.
    expect(args.slice(-4)).toEqual(['-c', 'gpiochip0', '17=1', '13=0']);
    expect(setCommand(pump, true)).toBe('set 17=0\n');
    expect(setCommand(fan, true)).toBe('set 13=1\n');
  });

  it('splits answers at each prompt, across chunks', () => {
    const answers: string[] = [];
    const output = new GpiosetOutput((answer) => answers.push(answer));
    output.push('gpioset> gpio');
    output.push('set> unable to set values on ');
    output.push("'gpiochip0': Device or resource busy\ngpioset> gpioset> ");
    expect(answers).toEqual(['', '', "unable to set values on 'gpiochip0': Device or resource busy", '']);
    output.push('unable to request lines');
    expect(output.rest()).toBe('unable to request lines');
  });
});

describe('relays through a gpioset holder', () => {
  it('holds the lines at OFF from the start and switches them by command', async () => {
    const gpiod = fakeGpiod();
    const relays = await openChardevRelays({ tools: gpiod.tools, clock: new ManualClock(), relays: [pump, fan] });
    expect(gpiod.levels.get(17)).toBe(1);
    expect(gpiod.levels.get(13)).toBe(0);
    const [pumpOut, fanOut] = relays.outputs;
    await pumpOut!.set(true);
    await fanOut!.set(true);
    expect(gpiod.levels.get(17)).toBe(0);
    expect(gpiod.levels.get(13)).toBe(1);
    await pumpOut!.set(false);
    expect(gpiod.levels.get(17)).toBe(1);
    expect(relays.status()).toEqual({ name: 'relays', available: true, reason: null });
    relays.close();
    expect(gpiod.held).toBe(false);
  });

  it('takes an echo of the command for no error', async () => {
    const gpiod = fakeGpiod({ echo: true });
    const relays = await openChardevRelays({ tools: gpiod.tools, clock: new ManualClock(), relays: [pump] });
    await relays.outputs[0]!.set(true);
    expect(gpiod.levels.get(17)).toBe(0);
  });

  it("rejects a switch gpioset could not make, with gpioset's words", async () => {
    const gpiod = fakeGpiod({ failSetsWith: "unable to set values on 'gpiochip0': Input/output error" });
    const relays = await openChardevRelays({ tools: gpiod.tools, clock: new ManualClock(), relays: [pump] });
    await expect(relays.outputs[0]!.set(true)).rejects.toThrow(/gpioset: unable to set values.*Input\/output error/);
    expect(gpiod.levels.get(17)).toBe(1);
  });

  it('when the holder dies: every switch refused, status says so, a one-shot gpioset drives them off', async () => {
    const gpiod = fakeGpiod();
    const logged: string[] = [];
    const relays = await openChardevRelays({ tools: gpiod.tools, clock: new ManualClock(), relays: [pump, fan], log: (line) => logged.push(line) });
    await relays.outputs[0]!.set(true);
    expect(gpiod.levels.get(17)).toBe(0);
    gpiod.killHolder();
    await new Promise((resolve) => setImmediate(resolve));
    expect(gpiod.runs.at(-1)).toEqual(['gpioset', '-c', 'gpiochip0', '-t', '0', '17=1', '13=0']);
    expect(gpiod.levels.get(17)).toBe(1);
    await expect(relays.outputs[0]!.set(true)).rejects.toThrow(/gpioset exited/);
    expect(relays.status()).toMatchObject({ name: 'relays', available: false, reason: expect.stringMatching(/gpiochip0.*gpioset exited.*restart the gateway/) });
    expect(logged.join('\n')).toMatch(/driven off/);
  });

  it('gives up on a gpioset that never takes the lines (injected clock, no waiting)', async () => {
    const gpiod = fakeGpiod({ neverPrompts: true });
    const clock = new ManualClock();
    const opening = openChardevRelays({ tools: gpiod.tools, clock, relays: [pump] });
    await new Promise((resolve) => setImmediate(resolve));
    clock.advance(GPIOSET_ANSWER_TIMEOUT_MS);
    await expect(opening).rejects.toThrow(/did not answer within 5000 ms/);
    expect(gpiod.held).toBe(false);
  });

  it("refuses libgpiod 1's gpioset (no interactive mode) and a board without the header chip", async () => {
    await expect(openChardevRelays({ tools: fakeGpiod({ version: 'v1.6.3' }).tools, clock: new ManualClock(), relays: [pump] })).rejects.toThrow(/libgpiod v1.*libgpiod 2/);
    await expect(openChardevRelays({ tools: fakeGpiod({ chips: 'gpiochip0 [gpio-sim] (8 lines)\n' }).tools, clock: new ManualClock(), relays: [pump] })).rejects.toThrow(/no Raspberry Pi header GPIO chip/);
  });
});

describe('raspberry-pi hardware on a kernel without sysfs GPIO', () => {
  it('uses the character device for the relays, drives them off before any sensor, and not onoff', async () => {
    const noSysfs = await mkdtemp(join(tmpdir(), 'no-sysfs-gpio-'));
    const gpiod = fakeGpiod();
    const log: OpLog = [];
    try {
      const hw = await createRaspberryPiHardware(
        { clock: new ManualClock(), sensors, outputs },
        {
          readBoardModel: async () => 'Raspberry Pi 4 Model B Rev 1.4',
          gpioSysfsRoot: noSysfs,
          gpiodTools: { run: gpiod.tools.run, spawn: (command, args) => (log.push('gpioset:holder'), gpiod.tools.spawn(command, args)) },
          loadOnoff: async () => (log.push('load:onoff'), fakeOnoff(log)),
          loadPigpio: async () => (log.push('load:pigpio'), fakePigpio(log)),
          loadDht: async () => (log.push('load:dht'), fakeDht(log, [{ t: 21, h: 55 }])),
          loadAds1x15: async () => (log.push('load:ads1x15'), fakeAds(log, { 0: 1000, 1: 1500 })),
        },
      );
      expect(log).not.toContain('load:onoff');
      // The holder was started before pigpio loaded (pigpio takes SIGCHLD).
      expect(log.indexOf('gpioset:holder')).toBeGreaterThanOrEqual(0);
      expect(log.indexOf('gpioset:holder')).toBeLessThan(log.indexOf('load:pigpio'));
      for (const o of outputs.filter((out) => out.kind === 'relay')) {
        expect(hw.outputs.get(o.outputId)).toBeDefined();
        expect(gpiod.levels.get(o.pin), o.outputId).toBe(o.activeLow ? 1 : 0);
      }
      await hw.outputs.get('relay-4')!.set(true);
      expect(gpiod.levels.get(5)).toBe(0);
      expect(hw.status().find((s) => s.name === 'relays')).toEqual({ name: 'relays', available: true, reason: null });
      await hw.close();
      // Driven off, then released.
      expect(gpiod.levels.get(5)).toBe(1);
      expect(gpiod.held).toBe(false);
    } finally {
      await rm(noSysfs, { recursive: true, force: true });
    }
  });

  it('says why when the gpiod tools are missing, and still runs the rest', async () => {
    const noSysfs = await mkdtemp(join(tmpdir(), 'no-sysfs-gpio-'));
    try {
      const hw = await createRaspberryPiHardware(
        { clock: new ManualClock(), sensors, outputs },
        {
          readBoardModel: async () => 'Raspberry Pi 4 Model B Rev 1.4',
          gpioSysfsRoot: noSysfs,
          gpiodTools: { run: async (command) => Promise.reject(new Error(`${command}: not installed (apt-get install gpiod)`)), spawn: () => { throw new Error('not reached'); } },
          loadOnoff: async () => fakeOnoff([]),
          loadPigpio: async () => fakePigpio([]),
          loadDht: async () => fakeDht([], [{ t: 21, h: 55 }]),
          loadAds1x15: async () => fakeAds([], { 0: 1000, 1: 1500 }),
        },
      );
      expect(hw.outputs.has('relay-1')).toBe(false);
      expect(hw.outputs.has('servo-1')).toBe(true);
      expect(hw.status().find((s) => s.name === 'relays')?.reason).toMatch(/no sysfs GPIO.*gpiodetect: not installed/);
      await hw.close();
    } finally {
      await rm(noSysfs, { recursive: true, force: true });
    }
  });
});

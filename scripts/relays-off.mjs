#!/usr/bin/env node
// The unit's ExecStopPost= (systemd/greenhouse-gateway.service): after every exit of the gateway (clean
// stop, crash, SIGKILL, watchdog abort) and before systemd restarts it, drives every configured relay to
// its OFF level through the kernel's sysfs GPIO interface. A relay keeps its level when the process that
// set it dies: onoff's sysfs exports belong to the kernel, not the process (dtparam=strict_gpiod only
// resets lines released by a libgpiod consumer), so without this a pump energised at the crash keeps
// pumping.
//
// Plain JavaScript with no dependency, on purpose: it must work when the build is missing or broken
// (an interrupted upgrade) and when node_modules is. It reads the same config as the gateway
// ($GREENHOUSE_CONFIG; without `outputs` there, the built-in defaults, which scripts/config.example.json
// spells out) and finds the GPIO chip's sysfs base the way drivers/rpi/gpio-base.ts does.
// The servo is left alone: without pulses a hobby servo holds its position, and sysfs cannot pulse.
//
//   node scripts/relays-off.mjs      GREENHOUSE_GPIO_SYSFS overrides /sys/class/gpio (tests)
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { relaysOffByGpiod } from './relays-off-gpiod.mjs';

const EXAMPLE_CONFIG = join(dirname(fileURLToPath(import.meta.url)), 'config.example.json');

/** Labels of the chips that carry the 40-pin header (drivers/rpi/gpio-base.ts, MAIN_GPIO_CHIP_LABELS). */
export const MAIN_GPIO_CHIP_LABELS = ['pinctrl-bcm2711', 'pinctrl-bcm2835', 'pinctrl-rp1'];

/** How long the kernel may take to create gpioN after an export (udev may chown it meanwhile). */
const EXPORT_WAIT_MS = 1000;

/** The configured relays: `{ outputId, pin, activeLow }[]`. Throws a message naming what is wrong. */
export function configuredRelays(env) {
  let outputs;
  if (env.GREENHOUSE_CONFIG) {
    const config = JSON.parse(readFileSync(env.GREENHOUSE_CONFIG, 'utf8'));
    outputs = config?.outputs;
  }
  outputs ??= JSON.parse(readFileSync(EXAMPLE_CONFIG, 'utf8')).outputs;
  if (!Array.isArray(outputs)) throw new Error('outputs: expected an array in the config');
  return outputs
    .filter((output) => output?.kind === 'relay')
    .map((output) => {
      if (!Number.isInteger(output.pin) || output.pin < 0 || output.pin > 27) {
        throw new Error(`outputs[${output.outputId}].pin: expected a BCM GPIO 0-27, got ${JSON.stringify(output.pin)}`);
      }
      return { outputId: String(output.outputId), pin: output.pin, activeLow: output.activeLow === true };
    });
}

/** The sysfs number base of the header's GPIO chip (512 on a Pi 4 with a 6.6+ kernel, 0 on older ones). */
export function gpioBase(sysfsRoot) {
  const chips = readdirSync(sysfsRoot)
    .filter((name) => /^gpiochip\d+$/.test(name))
    .map((name) => ({
      label: readFileSync(join(sysfsRoot, name, 'label'), 'utf8').trim(),
      base: Number(readFileSync(join(sysfsRoot, name, 'base'), 'utf8').trim()),
    }));
  for (const label of MAIN_GPIO_CHIP_LABELS) {
    const chip = chips.find((c) => c.label === label);
    if (chip) return chip.base;
  }
  throw new Error(`no Raspberry Pi header GPIO chip among ${chips.map((c) => `${c.label}@${c.base}`).join(', ') || 'no gpiochips'} in ${sysfsRoot}`);
}

function sleepMs(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Drives one relay off: exports the line if needed, then writes "high" or "low" to its direction, which
 * makes it an output already at that level in one step (gpiolib-sysfs direction_store), the same OFF
 * level the gateway uses (drivers/rpi/relay-level.ts: active-low boards are off when high). The line
 * stays exported and driven, so the board cannot float on.
 */
export function relayOff(sysfsRoot, base, relay) {
  const number = base + relay.pin;
  const line = join(sysfsRoot, `gpio${number}`);
  if (!existsSync(line)) {
    writeFileSync(join(sysfsRoot, 'export'), String(number));
    for (let waitedMs = 0; !existsSync(join(line, 'direction')) && waitedMs < EXPORT_WAIT_MS; waitedMs += 10) sleepMs(10);
  }
  writeFileSync(join(line, 'direction'), relay.activeLow ? 'high' : 'low');
}

/** Every relay it can, then a summary; exit 1 when any relay could not be switched off. */
export function main(env = process.env, log = console) {
  const sysfsRoot = env.GREENHOUSE_GPIO_SYSFS ?? '/sys/class/gpio';
  let relays;
  let base;
  try {
    relays = configuredRelays(env);
    if (relays.length === 0) {
      log.log('relays-off: no relay configured');
      return 0;
    }
    // A kernel without sysfs GPIO (CONFIG_GPIO_SYSFS off: on notice upstream): the character device.
    if (!existsSync(join(sysfsRoot, 'export'))) {
      log.log(`relays-off: ${relaysOffByGpiod(relays, MAIN_GPIO_CHIP_LABELS, env)}`);
      return 0;
    }
    base = gpioBase(sysfsRoot);
  } catch (err) {
    log.error(`relays-off: ${err.message}`);
    return 1;
  }
  const failed = [];
  for (const relay of relays) {
    try {
      relayOff(sysfsRoot, base, relay);
    } catch (err) {
      failed.push(`${relay.outputId} (GPIO ${relay.pin}): ${err.message}`);
    }
  }
  const done = relays.length - failed.length;
  log.log(`relays-off: ${done} of ${relays.length} relays driven off (GPIO chip base ${base})`);
  for (const failure of failed) log.error(`relays-off: could not switch off ${failure}`);
  return failed.length === 0 ? 0 : 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.exitCode = main();

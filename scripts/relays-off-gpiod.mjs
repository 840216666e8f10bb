// relays-off.mjs through the GPIO character device, for kernels without sysfs GPIO (it is on notice
// upstream): Debian's `gpioset` from the gpiod package (libgpiod v1 on bookworm, v2 on trixie) sets
// every configured relay to its OFF level on the header's chip, found with `gpiodetect` by the same
// labels as the sysfs path. Spawning is fine here: this runs in its own process after the gateway's
// exit, where pigpio's signal handlers are gone.
//
// When gpioset exits the lines are released; they keep the level it set unless dtparam=strict_gpiod
// is on, which returns a released line to its firmware default (an input: a relay board's own pull-up
// or pull-down then decides; docs/hardware.md says which boards that suits).
import { spawnSync } from 'node:child_process';

/** The chip carrying the 40-pin header, from `gpiodetect` lines like "gpiochip0 [pinctrl-bcm2711] (58 lines)". */
export function headerChip(gpiodetectOutput, labels) {
  const chips = gpiodetectOutput
    .split('\n')
    .map((line) => /^(\S+)\s+\[([^\]]*)\]/.exec(line.trim()))
    .filter(Boolean)
    .map(([, name, label]) => ({ name, label }));
  for (const label of labels) {
    const chip = chips.find((c) => c.label === label);
    if (chip) return chip.name;
  }
  throw new Error(`no Raspberry Pi header GPIO chip among ${chips.map((c) => `${c.name} [${c.label}]`).join(', ') || 'no gpiochips'} (gpiodetect)`);
}

/** libgpiod's major version from `gpioset --version` ("gpioset (libgpiod) v1.6.3", "gpioset (libgpiod) v2.1"). */
export function gpiosetMajor(versionOutput) {
  const match = /libgpiod\)?\s+v?(\d+)\./.exec(versionOutput);
  if (!match) throw new Error(`cannot tell gpioset's version from: ${versionOutput.trim().slice(0, 80)}`);
  return Number(match[1]);
}

/**
 * gpioset's arguments to set each relay's OFF level (high for active-low boards) and exit at once:
 * v1 `--mode=exit CHIP OFFSET=VALUE...`, v2 `-c CHIP -t 0 OFFSET=VALUE...` (a last toggle period of 0
 * means exit after applying the values). Offsets on the header chip are the BCM numbers.
 */
export function gpiosetArgs(major, chip, relays) {
  const values = relays.map((relay) => `${relay.pin}=${relay.activeLow ? 1 : 0}`);
  return major >= 2 ? ['-c', chip, '-t', '0', ...values] : ['--mode=exit', chip, ...values];
}

function runTool(command, args, env) {
  const result = spawnSync(command, args, { encoding: 'utf8', env, timeout: 5000 });
  if (result.error) throw new Error(`${command}: ${result.error.code === 'ENOENT' ? 'not installed (apt-get install gpiod)' : result.error.message}`);
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')}: exit ${result.status}: ${(result.stderr || result.stdout).trim()}`);
  return result.stdout;
}

/** Drives every relay off through gpioset; returns a one-line summary, throws naming what failed. */
export function relaysOffByGpiod(relays, labels, env) {
  const chip = headerChip(runTool('gpiodetect', [], env), labels);
  const major = gpiosetMajor(runTool('gpioset', ['--version'], env));
  runTool('gpioset', gpiosetArgs(major, chip, relays), env);
  return `${relays.length} of ${relays.length} relays driven off through the GPIO character device (${chip}, libgpiod v${major})`;
}

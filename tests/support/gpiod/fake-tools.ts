import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Fake `gpiodetect` and `gpioset` executables in `dir`/bin, for PATH. The fake gpioset behaves as
 * libgpiod 2's: `--version`; a one-shot (`-t 0`); `--interactive` with a prompt before each command,
 * silent `set`, `exit`, and, like the real one, no exit at the end of its input (only a signal ends
 * it). It writes its pid to `dir`/holder.pid and every command and one-shot to `dir`/gpioset.log.
 */
export function fakeGpiodTools(dir: string): { bin: string; log: string; pidFile: string } {
  const bin = join(dir, 'bin');
  mkdirSync(bin, { recursive: true });
  const log = join(dir, 'gpioset.log');
  const pidFile = join(dir, 'holder.pid');
  writeFileSync(join(bin, 'gpiodetect'), '#!/bin/sh\necho "gpiochip0 [pinctrl-bcm2711] (58 lines)"\necho "gpiochip1 [raspberrypi-exp-gpio] (8 lines)"\n');
  writeFileSync(
    join(bin, 'gpioset'),
    [
      '#!/bin/sh',
      'if [ "$1" = --version ]; then echo "gpioset (libgpiod) v2.2.1"; exit 0; fi',
      `case " $* " in *" -t 0 "*) echo "oneshot $*" >> '${log}'; exit 0 ;; esac`,
      `echo $$ > '${pidFile}'`,
      `echo "holder $*" >> '${log}'`,
      "printf 'gpioset> '",
      'while IFS= read -r line; do',
      '  [ "$line" = exit ] && exit 0',
      `  echo "$line" >> '${log}'`,
      "  printf 'gpioset> '",
      'done',
      'while :; do sleep 1; done',
      '',
    ].join('\n'),
  );
  chmodSync(join(bin, 'gpiodetect'), 0o755);
  chmodSync(join(bin, 'gpioset'), 0o755);
  return { bin, log, pidFile };
}

import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/** Compiles pigpio-signals.c into `dir`/pigpio-signals.node with the system C compiler. */
export function buildPigpioSignalsAddon(dir: string): string {
  const output = join(dir, 'pigpio-signals.node');
  const source = join(import.meta.dirname, 'pigpio-signals.c');
  const result = spawnSync('cc', ['-shared', '-fPIC', '-O2', '-o', output, source], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`cc could not build the pigpio signal shim (apt-get install gcc): ${result.error?.message ?? result.stderr}`);
  return output;
}

export const PIGPIO_SIGNALS_PRELOAD = join(import.meta.dirname, 'preload.mjs');

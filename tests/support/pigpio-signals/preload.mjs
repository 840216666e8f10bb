// `node --import tests/support/pigpio-signals/preload.mjs ...`: installs pigpio-like signal handlers
// (pigpio-signals.c, compiled by tests/support/pigpio-signals/build.ts) before the gateway starts, as
// the pigpio C library does when the gateway opens its first pigpio GPIO. First one child process is
// spawned and reaped, so libuv's own SIGCHLD handler is in place and is then overwritten, as happens
// when anything spawned a child before pigpio initialised.
// Worker threads inherit this preload (execArgv); the library initialises once per process, in the
// main thread, so only the main thread installs the handlers.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { isMainThread } from 'node:worker_threads';

const addon = process.env.PIGPIO_SIGNALS_ADDON;
if (!addon) throw new Error('PIGPIO_SIGNALS_ADDON must name the compiled pigpio-signals.node');
if (isMainThread) {
  await promisify(execFile)(process.execPath, ['-e', '']);
  process.dlopen({ exports: {} }, addon);
}

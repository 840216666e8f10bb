// The relays' character-device path with real processes: the gateway's shell (setpriv, sh) around a
// fake libgpiod 2 gpioset on PATH, in a child process with pigpio-like signal handlers installed after
// the holder started, as on a Pi. What matters here is what happens to the lines when a process dies.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fakeGpiodTools } from '../support/gpiod/fake-tools.ts';
import { buildPigpioSignalsAddon } from '../support/pigpio-signals/build.ts';

const CHILD = join(import.meta.dirname, '..', 'support', 'gpiod', 'holder-child.ts');

let dir: string;
let addon: string;
let child: ChildProcessWithoutNullStreams | null = null;
/** Every fake gpioset's pid file, so a failed test leaves no holder running. */
const pidFiles: string[] = [];
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'relay-chardev-'));
  addon = buildPigpioSignalsAddon(dir);
});
afterEach(() => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  child = null;
  for (const pidFile of pidFiles.splice(0)) {
    const pid = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8')) : 0;
    if (pid > 0 && !gone(pid)) process.kill(pid, 'SIGKILL');
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Starts the child; `next(prefix)` resolves with the next stdout line that starts with prefix. */
function startChild(work: string) {
  const tools = fakeGpiodTools(work);
  pidFiles.push(tools.pidFile);
  child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
    env: { PATH: `${tools.bin}:${process.env.PATH}`, PIGPIO_SIGNALS_ADDON: addon },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const lines: string[] = [];
  const waiters: Array<{ prefix: string; resolve: (line: string) => void }> = [];
  createInterface({ input: child.stdout }).on('line', (line) => {
    const at = waiters.findIndex((w) => line.startsWith(w.prefix));
    if (at >= 0) waiters.splice(at, 1)[0]!.resolve(line);
    else lines.push(line);
  });
  const next = (prefix: string) =>
    new Promise<string>((resolve, reject) => {
      const at = lines.findIndex((line) => line.startsWith(prefix));
      if (at >= 0) return resolve(lines.splice(at, 1)[0]!);
      waiters.push({ prefix, resolve });
      child!.once('exit', () => reject(new Error(`child exited before "${prefix}": ${stderr}`)));
    });
  const send = (command: string) => child!.stdin.write(`${command}\n`);
  return { tools, next, send, child: child! };
}

/** Whether a pid is gone (or a zombie waiting for its reaper, which holds no lines). */
function gone(pid: number): boolean {
  const stat = `/proc/${pid}/stat`;
  if (!existsSync(stat)) return true;
  try {
    return readFileSync(stat, 'utf8').split(') ')[1]!.startsWith('Z');
  } catch {
    return true;
  }
}

/** Waits for an operating-system event (a process's end), up to a generous deadline. */
async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('relays through a gpioset child, for real', () => {
  it('holds the line at OFF from the start and switches it, with pigpio-like signal handlers installed', async () => {
    const work = mkdtempSync(join(dir, 'switch-'));
    const { tools, next, send } = startChild(work);
    await next('ready');
    expect(readFileSync(tools.log, 'utf8')).toMatch(/^holder --interactive --consumer greenhouse-gateway -c gpiochip0 17=1$/m);
    send('on');
    expect(await next('done')).toBe('done on');
    send('off');
    expect(await next('done')).toBe('done off');
    expect(readFileSync(tools.log, 'utf8')).toContain('set 17=0\nset 17=1\n');
  });

  it('gpioset killed under the running gateway: seen through the pipe despite pigpio taking SIGCHLD, relays refused and driven off', async () => {
    const work = mkdtempSync(join(dir, 'holder-dies-'));
    const { tools, next, send } = startChild(work);
    await next('ready');
    send('on');
    await next('done');
    process.kill(Number(readFileSync(tools.pidFile, 'utf8')), 'SIGKILL');
    expect(await next('log')).toMatch(/relays: gpioset exited.*driven off/);
    await until(() => readFileSync(tools.log, 'utf8').includes('oneshot'), 'the one-shot gpioset');
    expect(readFileSync(tools.log, 'utf8')).toMatch(/^oneshot -c gpiochip0 -t 0 17=1$/m);
    send('on');
    expect(await next('refused')).toMatch(/gpioset exited/);
    send('status');
    expect(JSON.parse((await next('status')).slice('status '.length))).toMatchObject({ name: 'relays', available: false });
  });

  it('the gateway killed (SIGKILL): the kernel ends gpioset with it (setpriv --pdeathsig), so ExecStopPost finds the lines free', async () => {
    const work = mkdtempSync(join(dir, 'gateway-dies-'));
    const { tools, next, send, child: gateway } = startChild(work);
    await next('ready');
    send('on');
    await next('done');
    const holderPid = Number(readFileSync(tools.pidFile, 'utf8'));
    expect(gone(holderPid)).toBe(false);
    gateway.kill('SIGKILL');
    // Without the parent-death signal the fake, like libgpiod 2's gpioset, would read on for ever.
    await until(() => gone(holderPid), `gpioset (pid ${holderPid}) to end`);
  });
});

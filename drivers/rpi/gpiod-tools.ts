/*
 * The real processes behind drivers/rpi/relay-chardev.ts: Debian's gpiod tools. Short tools run with a
 * timeout; the holder is spawned with pipes for its commands and answers.
 */
import { execFile, spawn } from 'node:child_process';
import type { GpiodTools, HolderProcess } from './relay-chardev.ts';

const TOOL_TIMEOUT_MS = 5000;

export const realGpiodTools: GpiodTools = {
  run(command, args) {
    return new Promise((resolve, reject) => {
      execFile(command, args, { encoding: 'utf8', timeout: TOOL_TIMEOUT_MS }, (err, stdout, stderr) => {
        if (err) {
          const code = (err as NodeJS.ErrnoException).code;
          reject(new Error(code === 'ENOENT' ? `${command}: not installed (apt-get install gpiod)` : `${command} ${args.join(' ')}: ${(stderr || err.message).trim()}`));
        } else resolve(stdout);
      });
    });
  },
  spawn(command, args): HolderProcess {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'ignore'] });
    child.stdout.setEncoding('utf8');
    // A write to a holder that is gone fails with EPIPE; its output's end says so already.
    child.stdin.on('error', () => undefined);
    // A missing setpriv or sh: no output ever comes, and the pipe closes.
    child.on('error', () => child.stdout.destroy());
    return {
      write: (text) => {
        if (child.stdin.writable) child.stdin.write(text);
      },
      onOutput: (listener) => child.stdout.on('data', listener),
      onEnd: (listener) => child.stdout.once('close', listener),
      kill: () => {
        child.stdin.end();
        child.kill('SIGTERM');
      },
    };
  },
};

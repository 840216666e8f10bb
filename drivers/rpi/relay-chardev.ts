/*
 * Relays through the GPIO character device, for kernels without sysfs GPIO (docs/hardware.md, "Relays
 * after a crash"). One long-lived libgpiod 2 `gpioset --interactive` holds every relay line and takes a
 * `set` command per switch. Why a child and not a package: node-libgpiod speaks only libgpiod 1's API
 * (trixie ships libgpiod 2), and @iiot2k/gpiox is a prebuilt binary without its core's source.
 *
 * The child must be started before pigpio initialises: pigpio then takes SIGCHLD, so Node never hears
 * of a child's exit. That is why the child's death is noticed by its output pipe closing, never by an
 * exit event, and why nothing here waits for a process to end.
 *
 * What happens to the lines: while gpioset runs they are where the gateway put them. When the gateway
 * dies, setpriv's parent-death signal ends gpioset, the kernel releases the lines (they keep their
 * level, or go back to inputs under dtparam=strict_gpiod) and the unit's ExecStopPost drives them off
 * with a one-shot gpioset. When gpioset dies under a running gateway, every relay is refused from then
 * on and a one-shot gpioset drives them all off.
 */
import type { Clock } from '../../common/clock.ts';
import type { DriverStatus, SwitchOutput } from '../types.ts';
import { GpiosetOutput, gpiosetMajor, headerChipName, holderCommand, setCommand, type ChardevRelay } from './gpioset-protocol.ts';
import { levelFor } from './relay-level.ts';

/** The child as the driver sees it (a fake in tests). */
export interface HolderProcess {
  write(text: string): void;
  onOutput(listener: (chunk: string) => void): void;
  /** The output pipe closed: the process is gone (or closed it, which is as bad). */
  onEnd(listener: () => void): void;
  kill(): void;
}

export interface GpiodTools {
  /** Runs a short tool (gpiodetect, gpioset --version) to its end and resolves its output. */
  run(command: string, args: string[]): Promise<string>;
  spawn(command: string, args: string[]): HolderProcess;
}

/** How long gpioset may take to request the lines and answer a command before it counts as broken. */
export const GPIOSET_ANSWER_TIMEOUT_MS = 5000;

interface Pending {
  /** The command as sent, trimmed ('' for the request of the lines at start). */
  command: string;
  resolve(): void;
  reject(err: Error): void;
}

/** One gpioset child holding every relay line. */
export class GpiosetHolder {
  readonly #process: HolderProcess;
  readonly #clock: Clock;
  readonly #queue: Pending[] = [];
  readonly #output: GpiosetOutput;
  #ready = false;
  #gone: string | null = null;
  readonly #onGone: (reason: string) => void;

  private constructor(process: HolderProcess, clock: Clock, onGone: (reason: string) => void) {
    this.#process = process;
    this.#clock = clock;
    this.#onGone = onGone;
    this.#output = new GpiosetOutput((answer) => this.#answer(answer));
    process.onOutput((chunk) => this.#output.push(chunk));
    process.onEnd(() => this.#fail(`gpioset exited${this.#output.rest() ? `: ${this.#output.rest()}` : ''}`));
  }

  /** Starts gpioset and resolves once it holds the lines (its first prompt). */
  static async start(tools: GpiodTools, clock: Clock, chip: string, relays: readonly ChardevRelay[], onGone: (reason: string) => void): Promise<GpiosetHolder> {
    const { command, args } = holderCommand(chip, relays);
    const holder = new GpiosetHolder(tools.spawn(command, args), clock, onGone);
    await holder.#expectAnswer();
    holder.#ready = true;
    return holder;
  }

  get gone(): string | null {
    return this.#gone;
  }

  /** Sends one command; resolves when gpioset has done it, rejects with what it said otherwise. */
  async command(text: string): Promise<void> {
    if (this.#gone) throw new Error(this.#gone);
    const answered = this.#expectAnswer(text.trim());
    this.#process.write(text);
    await answered;
  }

  /** Releases the lines (at the level they are at: the caller drives them off first). */
  close(): void {
    if (this.#gone) return;
    this.#gone = 'closed';
    this.#process.write('exit\n');
    this.#process.kill();
  }

  #expectAnswer(command = ''): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const timer = this.#clock.setTimeout(() => this.#fail(`gpioset did not answer within ${GPIOSET_ANSWER_TIMEOUT_MS} ms`), GPIOSET_ANSWER_TIMEOUT_MS);
      this.#queue.push({
        command,
        resolve: () => {
          this.#clock.clearTimeout(timer);
          resolve();
        },
        reject: (err) => {
          this.#clock.clearTimeout(timer);
          reject(err);
        },
      });
    });
  }

  #answer(text: string): void {
    const pending = this.#queue.shift();
    if (!pending) return;
    // Should a libedit ever echo the command into the pipe, the echo is no error.
    if (pending.command !== '' && text.startsWith(pending.command)) text = text.slice(pending.command.length).trim();
    // The first prompt follows the request of the lines; any text before it is a banner, not an error.
    if (text === '' || !this.#ready) pending.resolve();
    else pending.reject(new Error(`gpioset: ${text}`));
  }

  #fail(reason: string): void {
    if (this.#gone) return;
    this.#gone = reason;
    this.#process.kill();
    for (const pending of this.#queue.splice(0)) pending.reject(new Error(reason));
    if (this.#ready) this.#onGone(reason);
  }
}

/** One relay channel on the holder's lines. */
export class ChardevRelayOutput implements SwitchOutput {
  readonly kind = 'relay' as const;
  readonly outputId: string;
  readonly #relay: ChardevRelay;
  readonly #holder: GpiosetHolder;

  constructor(holder: GpiosetHolder, relay: ChardevRelay) {
    this.outputId = relay.outputId;
    this.#relay = relay;
    this.#holder = holder;
  }

  async set(on: boolean): Promise<void> {
    await this.#holder.command(setCommand(this.#relay, on));
  }
}

export interface ChardevRelays {
  outputs: ChardevRelayOutput[];
  status(): DriverStatus;
  close(): void;
}

/**
 * Finds the header's chip, checks for libgpiod 2's gpioset and starts the holder with every relay at its
 * OFF level. Throws naming what is missing (no gpiod package, libgpiod 1, no header chip, lines busy).
 */
export async function openChardevRelays(options: { tools: GpiodTools; clock: Clock; relays: readonly ChardevRelay[]; log?: (message: string) => void }): Promise<ChardevRelays> {
  const { tools, clock, relays } = options;
  const chip = headerChipName(await tools.run('gpiodetect', []));
  const major = gpiosetMajor(await tools.run('gpioset', ['--version']));
  if (major < 2) throw new Error(`gpioset is libgpiod v${major}; holding relays needs libgpiod 2's --interactive (Debian trixie's gpiod)`);
  let lost: string | null = null;
  const holder = await GpiosetHolder.start(tools, clock, chip, relays, (reason) => {
    lost = reason;
    options.log?.(`relays: ${reason}; every relay refused from now on and driven off`);
    // Fire and forget: after pigpio's start this child's exit is never heard of (see above).
    const offValues = relays.map((relay) => `${relay.pin}=${levelFor(false, relay.activeLow)}`);
    tools.run('gpioset', ['-c', chip, '-t', '0', ...offValues]).catch(() => undefined);
  });
  return {
    outputs: relays.map((relay) => new ChardevRelayOutput(holder, relay)),
    status: () =>
      lost === null
        ? { name: 'relays', available: true, reason: null }
        : { name: 'relays', available: false, reason: `GPIO character device (${chip}): ${lost}; restart the gateway` },
    close: () => holder.close(),
  };
}

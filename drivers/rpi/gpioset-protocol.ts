/*
 * The pure half of the relays' character-device path (drivers/rpi/relay-chardev.ts): what to run and
 * how to read what libgpiod 2's `gpioset --interactive` prints. Kept apart so it is tested without a
 * child process. scripts/relays-off-gpiod.mjs has the same chip and version parsing for ExecStopPost,
 * which must stay a dependency-free script.
 */
import { levelFor } from './relay-level.ts';
import { MAIN_GPIO_CHIP_LABELS } from './gpio-base.ts';

export interface ChardevRelay {
  outputId: string;
  /** BCM number, which is the line's offset on the header's chip. */
  pin: number;
  activeLow: boolean;
}

/** What gpioset prints before reading each command when its stdout is not a terminal. */
export const GPIOSET_PROMPT = 'gpioset> ';

/** The header's chip from `gpiodetect` lines like "gpiochip0 [pinctrl-bcm2711] (58 lines)". */
export function headerChipName(gpiodetectOutput: string): string {
  const chips = gpiodetectOutput
    .split('\n')
    .map((line) => /^(\S+)\s+\[([^\]]*)\]/.exec(line.trim()))
    .filter((match): match is RegExpExecArray => match !== null)
    .map(([, name, label]) => ({ name: name!, label: label! }));
  for (const label of MAIN_GPIO_CHIP_LABELS) {
    const chip = chips.find((c) => c.label === label);
    if (chip) return chip.name;
  }
  const seen = chips.map((c) => `${c.name} [${c.label}]`).join(', ') || 'no gpiochips';
  throw new Error(`no Raspberry Pi header GPIO chip (${MAIN_GPIO_CHIP_LABELS.join(', ')}) among ${seen} (gpiodetect)`);
}

/** libgpiod's major version from `gpioset --version` ("gpioset (libgpiod) v2.2.1"). */
export function gpiosetMajor(versionOutput: string): number {
  const match = /libgpiod\)?\s+v?(\d+)\./.exec(versionOutput);
  if (!match) throw new Error(`cannot tell gpioset's version from: ${versionOutput.trim().slice(0, 80)}`);
  return Number(match[1]);
}

/**
 * The long-lived holder: `setpriv --pdeathsig TERM` makes the kernel end gpioset when the gateway's
 * process ends however it ends (gpioset 2's interactive loop does not stop at the end of its input: it
 * reads on forever, holding the lines), `sh -c '... 2>&1'` puts its error messages in the same pipe
 * as its prompts so they arrive in order, and every line is requested as an output already at its OFF
 * level, so no relay clicks on while the gateway starts.
 */
export function holderCommand(chip: string, relays: readonly ChardevRelay[]): { command: string; args: string[] } {
  const values = relays.map((relay) => `${relay.pin}=${levelFor(false, relay.activeLow)}`);
  return {
    command: 'setpriv',
    args: ['--pdeathsig', 'TERM', '--', 'sh', '-c', 'exec gpioset "$@" 2>&1', 'gpioset', '--interactive', '--consumer', 'greenhouse-gateway', '-c', chip, ...values],
  };
}

/** The interactive command that drives one relay's line to the level for `on`. */
export function setCommand(relay: ChardevRelay, on: boolean): string {
  return `set ${relay.pin}=${levelFor(on, relay.activeLow)}\n`;
}

/**
 * Splits gpioset's output into answers: each prompt ends the answer to the command before it (the first
 * prompt, to the request of the lines itself). An answer is whatever gpioset printed in between: empty
 * when a `set` worked, "unable to set values on ...", "unknown line ..." and the like when not.
 */
export class GpiosetOutput {
  #pending = '';
  readonly #onAnswer: (text: string) => void;

  constructor(onAnswer: (text: string) => void) {
    this.#onAnswer = onAnswer;
  }

  push(chunk: string): void {
    this.#pending += chunk;
    for (let at = this.#pending.indexOf(GPIOSET_PROMPT); at >= 0; at = this.#pending.indexOf(GPIOSET_PROMPT)) {
      const answer = this.#pending.slice(0, at).trim();
      this.#pending = this.#pending.slice(at + GPIOSET_PROMPT.length);
      this.#onAnswer(answer);
    }
  }

  /** What came after the last prompt (gpioset's last words when it exits). */
  rest(): string {
    return this.#pending.trim();
  }
}

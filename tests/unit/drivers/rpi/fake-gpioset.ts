import type { GpiodTools, HolderProcess } from '../../../../drivers/rpi/relay-chardev.ts';

/**
 * libgpiod 2's `gpioset --interactive` as the driver sees it through its pipe (prompt before each
 * command, `set` silent when it works, errors printed before the next prompt), plus gpiodetect and
 * `gpioset --version`. `levels` is what the lines are driven to; `held` whether a holder has them.
 */
export function fakeGpiod(options: { version?: string; chips?: string; failSetsWith?: string; neverPrompts?: boolean; echo?: boolean } = {}) {
  const levels = new Map<number, number>();
  const runs: string[][] = [];
  let holder: { args: string[]; end: () => void } | null = null;
  let held = false;
  const tools: GpiodTools = {
    async run(command, args) {
      runs.push([command, ...args]);
      if (command === 'gpiodetect') return options.chips ?? 'gpiochip0 [pinctrl-bcm2711] (58 lines)\ngpiochip1 [raspberrypi-exp-gpio] (8 lines)\n';
      if (command === 'gpioset' && args[0] === '--version') return `gpioset (libgpiod) ${options.version ?? 'v2.2.1'}\nCopyright (C) 2017-2023 Bartosz Golaszewski\n`;
      if (command === 'gpioset') {
        // The one-shot: `-c CHIP -t 0 OFFSET=VALUE...`.
        for (const value of args.slice(4)) levels.set(Number(value.split('=')[0]), Number(value.split('=')[1]));
        return '';
      }
      throw new Error(`unexpected ${command}`);
    },
    spawn(command, args): HolderProcess {
      const outputListeners: Array<(chunk: string) => void> = [];
      const endListeners: Array<() => void> = [];
      let ended = false;
      const emit = (text: string) => queueMicrotask(() => outputListeners.forEach((l) => l(text)));
      const end = () => {
        if (ended) return;
        ended = true;
        held = false;
        queueMicrotask(() => endListeners.forEach((l) => l()));
      };
      holder = { args: [command, ...args], end };
      const values = args.slice(args.indexOf('-c') + 2);
      for (const value of values) levels.set(Number(value.split('=')[0]), Number(value.split('=')[1]));
      held = true;
      if (!options.neverPrompts) emit('gpioset> ');
      return {
        write(text) {
          if (ended) return;
          for (const line of text.split('\n').filter(Boolean)) {
            if (options.echo) emit(`${line}\n`);
            const [word, ...rest] = line.split(' ');
            if (word === 'exit') return end();
            if (word === 'set') {
              if (options.failSetsWith) emit(`${options.failSetsWith}\n`);
              else for (const value of rest) levels.set(Number(value.split('=')[0]), Number(value.split('=')[1]));
            }
            emit('gpioset> ');
          }
        },
        onOutput: (listener) => void outputListeners.push(listener),
        onEnd: (listener) => void endListeners.push(listener),
        kill: end,
      };
    },
  };
  return {
    tools,
    levels,
    runs,
    get holderArgs() {
      return holder?.args ?? null;
    },
    get held() {
      return held;
    },
    /** The holder dies under the gateway (killed, crashed). */
    killHolder: () => holder?.end(),
  };
}

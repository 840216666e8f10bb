// `node --import tsx tests/support/gpiod/holder-child.ts`: the gateway's relays through the GPIO
// character device in a process of their own, with the real child-process shell (setpriv, sh, the
// gpioset on PATH: a fake in tests). After the holder has started, pigpio-like signal handlers are
// installed when PIGPIO_SIGNALS_ADDON names the shim, as the gateway's pigpio does. Commands on stdin,
// one a line: "on", "off", "status"; answers on stdout, one a line.
import { createInterface } from 'node:readline';
import { SystemClock } from '../../../common/clock.ts';
import { realGpiodTools } from '../../../drivers/rpi/gpiod-tools.ts';
import { openChardevRelays } from '../../../drivers/rpi/relay-chardev.ts';

const relays = await openChardevRelays({
  tools: realGpiodTools,
  clock: new SystemClock(),
  relays: [{ outputId: 'pump', pin: 17, activeLow: true }],
  log: (line) => console.log(`log ${line}`),
});
if (process.env.PIGPIO_SIGNALS_ADDON) process.dlopen({ exports: {} }, process.env.PIGPIO_SIGNALS_ADDON);
console.log('ready');
for await (const line of createInterface({ input: process.stdin })) {
  if (line === 'status') console.log(`status ${JSON.stringify(relays.status())}`);
  else {
    await relays.outputs[0]!.set(line === 'on').then(
      () => console.log(`done ${line}`),
      (err: Error) => console.log(`refused ${err.message}`),
    );
  }
}

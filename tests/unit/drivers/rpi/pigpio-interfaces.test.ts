import { describe, expect, it } from 'vitest';
import { withoutPigpioInterfaces } from '../../../../drivers/rpi/hardware.ts';
import type { PigpioModule } from '../../../../drivers/rpi/native.ts';

describe('withoutPigpioInterfaces', () => {
  it("switches off pigpio's TCP socket and /dev FIFO interfaces (the package's flag values)", () => {
    const calls: number[] = [];
    const fake = {
      Gpio: Object.assign(function Gpio() {}, { INPUT: 0, OUTPUT: 1 }),
      configureInterfaces: (flags: number) => void calls.push(flags),
      DISABLE_FIFO_IF: 1,
      DISABLE_SOCK_IF: 2,
    } as unknown as PigpioModule;
    expect(withoutPigpioInterfaces(fake)).toBe(fake);
    expect(calls).toEqual([3]);
  });
});

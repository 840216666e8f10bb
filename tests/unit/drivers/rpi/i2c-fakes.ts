import type { I2cBus, I2cBusModule } from '../../../../drivers/rpi/native.ts';
import type { OpLog } from './fakes.ts';

/**
 * One fake chip on a fake bus. Each handler answers the transfer the way the chip's datasheet says;
 * a handler that throws is a NACK or a bus error (i2c-bus rejects with EREMOTEIO / EIO).
 */
export interface FakeI2cChip {
  write?(bytes: number[]): void;
  read?(length: number): number[];
  readRegisters?(register: number, length: number): number[];
  writeRegister?(register: number, value: number): void;
}

const nack = () => Object.assign(new Error('EREMOTEIO, Remote I/O error'), { code: 'EREMOTEIO' });

/**
 * A fake of i2c-bus's openPromisified on a Pi with only bus 1 enabled: chips by address (no chip at an
 * address NACKs, as on a real bus); every transfer is logged as `i2c:<bus>:<addr> <op> <bytes>`.
 */
export function fakeI2c(log: OpLog, chips: Record<number, FakeI2cChip>): I2cBusModule & { openBuses: number } {
  const state = { openBuses: 0 };
  const hex = (n: number) => n.toString(16).padStart(2, '0');
  const chipAt = (address: number) => {
    const chip = chips[address];
    if (!chip) throw nack();
    return chip;
  };
  return Object.assign(state, {
    async openPromisified(busNumber: number): Promise<I2cBus> {
      log.push(`i2c:open ${busNumber}`);
      if (busNumber !== 1) throw Object.assign(new Error(`ENOENT: no such file or directory, open '/dev/i2c-${busNumber}'`), { code: 'ENOENT' });
      state.openBuses++;
      const tag = (address: number) => `i2c:${busNumber}:${hex(address)}`;
      return {
        async i2cWrite(address, length, buffer) {
          const bytes = [...buffer.subarray(0, length)];
          log.push(`${tag(address)} write ${bytes.map(hex).join(' ')}`);
          const chip = chipAt(address);
          if (!chip.write) throw nack();
          chip.write(bytes);
          return { bytesWritten: length, buffer };
        },
        async i2cRead(address, length, buffer) {
          log.push(`${tag(address)} read ${length}`);
          const chip = chipAt(address);
          if (!chip.read) throw nack();
          const bytes = chip.read(length);
          buffer.set(bytes.slice(0, length));
          return { bytesRead: Math.min(length, bytes.length), buffer };
        },
        async readI2cBlock(address, register, length, buffer) {
          log.push(`${tag(address)} readReg ${hex(register)} ${length}`);
          const chip = chipAt(address);
          if (!chip.readRegisters) throw nack();
          const bytes = chip.readRegisters(register, length);
          buffer.set(bytes.slice(0, length));
          return { bytesRead: Math.min(length, bytes.length), buffer };
        },
        async writeByte(address, register, value) {
          log.push(`${tag(address)} writeReg ${hex(register)} ${hex(value)}`);
          const chip = chipAt(address);
          if (!chip.writeRegister) throw nack();
          chip.writeRegister(register, value);
        },
        async close() {
          log.push(`i2c:close ${busNumber}`);
          state.openBuses--;
        },
      };
    },
  });
}

export { nack };

/** Runs `promise` while moving the manual clock forward, so driver waits elapse. */
export async function settle<T>(clock: { advanceAsync(ms: number, stepMs?: number): Promise<void> }, promise: Promise<T>, ms = 1000, stepMs = 1): Promise<T> {
  const guarded = promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  await clock.advanceAsync(ms, stepMs);
  const r = await guarded;
  if ('error' in r) throw r.error;
  return r.value;
}

import { describe, expect, it } from 'vitest';
import { SensorReadError } from '../../../../drivers/types.ts';
import { checkAddress, checkBusNumber, I2cDevice } from '../../../../drivers/rpi/i2c-device.ts';
import type { OpLog } from './fakes.ts';
import { fakeI2c } from './i2c-fakes.ts';

describe('I2C device', () => {
  it('a short answer or a bus error is a SensorReadError naming the sensor and the address', async () => {
    const i2c = fakeI2c([], {
      0x44: {
        read: () => [0x01, 0x02],
        write: () => {
          throw new Error('EIO, i/o error');
        },
        readRegisters: () => [0x60],
      },
    });
    const d = await I2cDevice.open({ i2c, bus: 1, address: 0x44, sensor: 'air-1' });
    await expect(d.read(3)).rejects.toThrow(SensorReadError);
    await expect(d.read(3)).rejects.toThrow('air-1: read 2 of 3 bytes (0x44)');
    await expect(d.write([0x24, 0x00])).rejects.toThrow('air-1: I2C write failed: EIO, i/o error (0x44)');
    await expect(d.readRegisters(0xf7, 8)).rejects.toThrow('air-1: read 1 of 8 bytes from register 0xf7 (0x44)');
    const absent = await I2cDevice.open({ i2c, bus: 1, address: 0x45, sensor: 'air-2' });
    await expect(absent.read(1)).rejects.toThrow('air-2: I2C read failed: EREMOTEIO, Remote I/O error (0x45)');
  });

  it('runs one transaction at a time: a command and its answer are never split by another caller', async () => {
    const log: OpLog = [];
    const i2c = fakeI2c(log, { 0x44: { write: () => {}, read: (n) => new Array(n).fill(0) } });
    const d = await I2cDevice.open({ i2c, bus: 1, address: 0x44, sensor: 's' });
    const transaction = (cmd: number) => d.exclusive(async () => {
      await d.write([cmd]);
      await new Promise((resolve) => setImmediate(resolve));
      return d.read(1);
    });
    await Promise.all([transaction(0xaa), transaction(0xbb)]);
    expect(log.slice(1)).toEqual(['i2c:1:44 write aa', 'i2c:1:44 read 1', 'i2c:1:44 write bb', 'i2c:1:44 read 1']);
  });

  it('checks bus numbers and addresses, naming the bad value', () => {
    expect(() => checkBusNumber('X', 256)).toThrow('X I2C bus must be an integer 0-255, got 256');
    expect(() => checkBusNumber('X', Number.NaN)).toThrow('got NaN');
    expect(() => checkAddress('X', 98.5, [0x62])).toThrow('X I2C address must be 0x62, got 98.5');
    expect(() => checkAddress('X', -1, [0x76, 0x77])).toThrow('X I2C address must be 0x76 or 0x77, got -1');
    expect(() => checkAddress('X', 0x76, [0x76, 0x77])).not.toThrow();
  });
});

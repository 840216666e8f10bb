import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SensorReadError } from '../../../../drivers/types.ts';
import { checkDs18b20Id, decodeW1Slave, ds18b20TemperatureC, maximCrc8 } from '../../../../drivers/rpi/ds18b20-convert.ts';
import { Ds18b20Sensor } from '../../../../drivers/rpi/ds18b20.ts';

/** The kernel's own example of w1_slave (Documentation/w1/slaves/w1_therm.rst). */
const KERNEL_EXAMPLE = '72 01 4b 46 7f ff 0e 10 57 : crc=57 YES\n72 01 4b 46 7f ff 0e 10 57 t=23125\n';

/** w1_slave as w1-therm prints it for a scratchpad holding `raw` (1/16 °C) at 12 bits. */
function w1Slave(raw: number, options: { config?: number; verdict?: 'YES' | 'NO'; t?: number; crc?: number } = {}): string {
  const bytes = [raw & 0xff, (raw >> 8) & 0xff, 0x4b, 0x46, options.config ?? 0x7f, 0xff, 0x0c, 0x10];
  bytes.push(options.crc ?? maximCrc8(bytes));
  const hex = bytes.map((b) => b.toString(16).padStart(2, '0')).join(' ');
  const t = options.t ?? Math.trunc((((raw << 16) >> 16) * 1000) / 16); // C integer division, as w1-therm
  return `${hex} : crc=${bytes[8]!.toString(16).padStart(2, '0')} ${options.verdict ?? 'YES'}\n${hex} t=${t}\n`;
}

describe('Maxim 1-Wire CRC-8', () => {
  it("gives application note 27's example: ROM 02 1C B8 01 00 00 00 -> A2, and 0 over a block with its CRC", () => {
    expect(maximCrc8([0x02, 0x1c, 0xb8, 0x01, 0x00, 0x00, 0x00])).toBe(0xa2);
    expect(maximCrc8([0x02, 0x1c, 0xb8, 0x01, 0x00, 0x00, 0x00, 0xa2])).toBe(0);
  });
  it("matches the kernel's example scratchpad (crc=57) and the all-ones line of a missing pull-up (crc=c9 against ff)", () => {
    expect(maximCrc8([0x72, 0x01, 0x4b, 0x46, 0x7f, 0xff, 0x0e, 0x10])).toBe(0x57);
    expect(maximCrc8(new Array(8).fill(0xff))).toBe(0xc9);
  });
});

describe('DS18B20 conversion', () => {
  it.each([
    ['07D0', 125],
    ['0550', 85],
    ['0191', 25.0625],
    ['00A2', 10.125],
    ['0008', 0.5],
    ['0000', 0],
    ['FFF8', -0.5],
    ['FF5E', -10.125],
    ['FE6F', -25.0625],
    ['FC90', -55],
  ])('temperature register %sh -> %s °C (datasheet Table 1)', (hex, celsius) => {
    const raw = parseInt(hex, 16);
    expect(ds18b20TemperatureC(raw & 0xff, raw >> 8)).toBe(celsius);
  });

  it('masks the undefined low bits below 12-bit resolution', () => {
    expect(ds18b20TemperatureC(0x91, 0x01, 0x1f)).toBe(25); // 9 bit: 1/2 °C steps
    expect(ds18b20TemperatureC(0x91, 0x01, 0x3f)).toBe(25); // 10 bit: 1/4 °C
    expect(ds18b20TemperatureC(0x93, 0x01, 0x5f)).toBe(25.125); // 11 bit: 1/8 °C
  });

  it("reads the kernel's example: 23.125 °C", () => {
    expect(decodeW1Slave(KERNEL_EXAMPLE, 'root')).toBe(23.125);
    expect(decodeW1Slave(w1Slave(0xfe6f), 'root')).toBe(-25.062); // t= is in whole m°C
  });

  it.each([
    ['the kernel CRC verdict NO', w1Slave(0x0191, { verdict: 'NO' }), /CRC check failed \(crc=.. NO\)/],
    ['a CRC that does not match the bytes', w1Slave(0x0191, { crc: 0x00 }), /does not match its bytes/],
    ['the power-on reset value 85 °C', w1Slave(0x0550), /power-on reset value/],
    ['-127 °C', w1Slave(0xf810, { t: -127000 }), /-127 °C: the sensor did not answer/],
    ['all zeros (a data line held low passes the CRC)', '00 00 00 00 00 00 00 00 00 : crc=00 YES\n00 00 00 00 00 00 00 00 00 t=0\n', /configuration byte 0x0/],
    ['all ones (no pull-up)', 'ff ff ff ff ff ff ff ff ff : crc=c9 NO\nff ff ff ff ff ff ff ff ff t=-62\n', /NO/],
    ['a t= that disagrees with the bytes', w1Slave(0x0191, { t: 30000 }), /does not match the scratchpad/],
    ['a truncated file', '72 01 4b 46 7f ff 0e 10 57 : crc=57 YES\n', /1 line\(s\)/],
    ['garbage', 'hello\nworld\n', /not in the w1-therm format/],
  ])('refuses %s as a failed read', (_what, text, why) => {
    expect(() => decodeW1Slave(text, 'root')).toThrow(SensorReadError);
    expect(() => decodeW1Slave(text, 'root')).toThrow(why);
  });

  it('checks the 1-Wire id form, naming the bad value', () => {
    expect(checkDs18b20Id('28-0316A27968FF')).toBe('28-0316a27968ff');
    for (const bad of ['10-0316a27968ff', '28-0316a27968f', '28-0316a27968fff', '28-0316a27968fg', '../28-0316a27968ff', '']) {
      expect(() => checkDs18b20Id(bad)).toThrow(`got ${JSON.stringify(bad)}`);
    }
  });
});

describe('DS18B20 shell on a w1 sysfs tree', () => {
  const roots: string[] = [];
  afterEach(async () => {
    await Promise.all(roots.splice(0).map((r) => rm(r, { recursive: true, force: true })));
  });
  async function w1Tree(devices: Record<string, string>): Promise<string> {
    const root = await mkdtemp(join(tmpdir(), 'w1-devices-'));
    roots.push(root);
    for (const [id, text] of Object.entries(devices)) {
      await mkdir(join(root, id));
      await writeFile(join(root, id, 'w1_slave'), text);
    }
    return root;
  }

  it('opens a listed probe and reads root-zone temperature from w1_slave', async () => {
    const devicesRoot = await w1Tree({ '28-0316a27968ff': KERNEL_EXAMPLE });
    const probe = await Ds18b20Sensor.open({ id: '28-0316A27968FF', devicesRoot, sensor: 'root-1' });
    expect(await probe.read()).toEqual({ rootTemperatureC: 23.125 });
    await writeFile(join(devicesRoot, '28-0316a27968ff', 'w1_slave'), w1Slave(0x0191, { verdict: 'NO' }));
    await expect(probe.read()).rejects.toThrow(/^root-1: the 1-Wire CRC check failed/);
  });

  it('a probe that is not listed does not open; one that disappears later is a failed read', async () => {
    const devicesRoot = await w1Tree({ '28-0316a27968ff': KERNEL_EXAMPLE });
    await expect(Ds18b20Sensor.open({ id: '28-000000000001', devicesRoot })).rejects.toThrow(/no DS18B20 28-000000000001 on the 1-Wire bus/);
    await expect(Ds18b20Sensor.open({ id: '28-xyz', devicesRoot })).rejects.toThrow(/got "28-xyz"/);
    const probe = await Ds18b20Sensor.open({ id: '28-0316a27968ff', devicesRoot });
    await rm(join(devicesRoot, '28-0316a27968ff'), { recursive: true });
    await expect(probe.read()).rejects.toBeInstanceOf(SensorReadError);
  });
});

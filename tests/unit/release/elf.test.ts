import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain JavaScript release script, no types
import { elfMachine, elfMachineOfFile, TARGETS } from '../../../scripts/release/elf.mjs';

/** The first 20 bytes of an ELF header: magic, class, byte order, then e_machine at 18. */
function header(bits: 32 | 64, machine: number, bigEndian = false): Buffer {
  const bytes = Buffer.alloc(20);
  bytes.set([0x7f, 0x45, 0x4c, 0x46, bits === 32 ? 1 : 2, bigEndian ? 2 : 1]);
  if (bigEndian) bytes.writeUInt16BE(machine, 18);
  else bytes.writeUInt16LE(machine, 18);
  return bytes;
}

describe('release targets and the ELF check', () => {
  it('tells the arm targets from the build machine', () => {
    expect(elfMachine(header(64, 183))).toEqual({ machine: 'aarch64', bits: 64 });
    expect(elfMachine(header(32, 40))).toEqual({ machine: 'arm', bits: 32 });
    expect(elfMachine(header(64, 62))).toEqual({ machine: 'x86-64', bits: 64 });
    expect(elfMachine(header(32, 40, true))).toEqual({ machine: 'arm', bits: 32 });
    expect(elfMachine(header(64, 999))).toEqual({ machine: 'machine 999', bits: 64 });
  });

  it('each target names the machine and word size its addons must have', () => {
    expect(TARGETS.arm64).toMatchObject({ machine: 'aarch64', bits: 64, qemu: 'qemu-aarch64-static', triplet: 'aarch64-linux-gnu' });
    expect(TARGETS.armhf).toMatchObject({ machine: 'arm', bits: 32, qemu: 'qemu-arm-static', triplet: 'arm-linux-gnueabihf' });
  });

  it('refuses what is no ELF file, naming the file', () => {
    expect(() => elfMachine(Buffer.from('#!/bin/sh\necho not an addon\n'))).toThrow(/not an ELF file/);
    const dir = mkdtempSync(join(tmpdir(), 'elf-'));
    try {
      writeFileSync(join(dir, 'x86.node'), header(64, 62));
      expect(elfMachineOfFile(join(dir, 'x86.node'))).toEqual({ machine: 'x86-64', bits: 64 });
      writeFileSync(join(dir, 'short.node'), 'ELF');
      expect(() => elfMachineOfFile(join(dir, 'short.node'))).toThrow(/short\.node: not an ELF file/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('checks the running Node.js binary as what it is', () => {
    const expected = { x64: { machine: 'x86-64', bits: 64 }, arm64: { machine: 'aarch64', bits: 64 }, arm: { machine: 'arm', bits: 32 } }[process.arch as 'x64'];
    if (expected) expect(elfMachineOfFile(process.execPath)).toEqual(expected);
  });
});

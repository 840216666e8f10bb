// The release targets and the check that a compiled addon is for one of them (docs/hardware.md,
// "Releases"): an x86 .node file left in an arm tarball would only fail on the Pi, at its first start.
import { closeSync, openSync, readSync } from 'node:fs';

/**
 * One entry per tarball: Debian's cross compiler (triplet), node-gyp's and npm's names for the
 * processor, the ELF machine and class the addons must carry, the qemu-user binary that runs them and
 * Debian's architecture name (the arm root for qemu).
 */
export const TARGETS = {
  arm64: { triplet: 'aarch64-linux-gnu', gypArch: 'arm64', npmCpu: 'arm64', machine: 'aarch64', bits: 64, qemu: 'qemu-aarch64-static', debianArch: 'arm64' },
  armhf: { triplet: 'arm-linux-gnueabihf', gypArch: 'arm', npmCpu: 'arm', machine: 'arm', bits: 32, qemu: 'qemu-arm-static', debianArch: 'armhf' },
};

// e_machine values of the ELF specification (elf.h's EM_*).
const MACHINES = { 3: 'x86', 40: 'arm', 62: 'x86-64', 183: 'aarch64', 243: 'riscv' };

/**
 * The processor and word size an ELF header names: bytes 0-3 the magic, 4 the class (1: 32-bit,
 * 2: 64-bit), 5 the byte order (1: little), 18-19 e_machine. Throws on anything that is no ELF file.
 */
export function elfMachine(header) {
  if (header.length < 20 || header[0] !== 0x7f || header[1] !== 0x45 || header[2] !== 0x4c || header[3] !== 0x46) {
    throw new Error('not an ELF file');
  }
  const bits = header[4] === 1 ? 32 : header[4] === 2 ? 64 : null;
  if (bits === null) throw new Error(`unknown ELF class ${header[4]}`);
  const code = header[5] === 1 ? header.readUInt16LE(18) : header.readUInt16BE(18);
  return { machine: MACHINES[code] ?? `machine ${code}`, bits };
}

/** elfMachine of a file's first 20 bytes. */
export function elfMachineOfFile(path) {
  const fd = openSync(path, 'r');
  try {
    const header = Buffer.alloc(20);
    const read = readSync(fd, header, 0, 20, 0);
    return elfMachine(header.subarray(0, read));
  } catch (err) {
    throw new Error(`${path}: ${err.message}`, { cause: err });
  } finally {
    closeSync(fd);
  }
}

import { accessSync, constants, statSync } from 'node:fs';
import { join } from 'node:path';
import { BACKUPS_DIR } from './backup.ts';

export interface BackupTargetOptions {
  dataDir: string;
  /** `backup.dir` of the config: a directory on another disk, or undefined for the data dir's `backups/`. */
  configuredDir?: string;
  /** The device a path lives on (`stat().dev`); tests may pretend two directories are one disk. */
  deviceOf?: (path: string) => number;
}

export type BackupTarget = { ok: true; dir: string; external: boolean } | { ok: false; dir: string; reason: string };

/**
 * Where the next backup may be written, checked just before it is. A configured directory must be a
 * writable directory on another device than the data dir: an unplugged USB stick leaves its mount
 * point behind as an empty directory on the SD card, and a backup written there would fill the card
 * it is meant to protect. No fallback to the data dir: the caller skips the backup and says why.
 */
export function resolveBackupTarget(options: BackupTargetOptions): BackupTarget {
  const { dataDir, configuredDir } = options;
  if (!configuredDir) return { ok: true, dir: join(dataDir, BACKUPS_DIR), external: false };
  const deviceOf = options.deviceOf ?? ((path: string) => statSync(path).dev);
  const dir = configuredDir;
  try {
    if (!statSync(dir).isDirectory()) return { ok: false, dir, reason: `${dir} is not a directory` };
  } catch {
    return { ok: false, dir, reason: `${dir} does not exist (is the backup disk plugged in and mounted?)` };
  }
  try {
    accessSync(dir, constants.W_OK);
  } catch {
    return { ok: false, dir, reason: `${dir} is not writable by the gateway` };
  }
  if (deviceOf(dir) === deviceOf(dataDir)) {
    return { ok: false, dir, reason: `${dir} is on the same disk as the data dir (is the backup disk mounted?)` };
  }
  return { ok: true, dir, external: true };
}

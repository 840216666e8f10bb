import { randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const SETUP_CODE_FILE = 'setup-code';

/**
 * The one-time code that the first registration must carry (server/auth/README.md, "First run"): on a
 * fresh gateway anyone on the LAN can reach the sign-up form, and only the owner can read the data dir
 * or the log. Kept in `<dataDir>/setup-code` (0600) until the first admin exists.
 */
export class SetupCode {
  readonly path: string;

  constructor(dataDir: string) {
    this.path = join(dataDir, SETUP_CODE_FILE);
  }

  /** The code, created on the first call; the same after a restart until the first admin exists. */
  ensure(): string {
    if (existsSync(this.path)) {
      const kept = readFileSync(this.path, 'utf8').trim();
      if (kept.length >= 12) {
        chmodSync(this.path, 0o600);
        return kept;
      }
    }
    // 15 characters of base32-like text: easy to type from a log, 75 bits against guessing.
    const code = [...randomBytes(15)].map((b) => 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'[b % 32]).join('');
    writeFileSync(this.path, `${code}\n`, { mode: 0o600 });
    chmodSync(this.path, 0o600);
    return code;
  }

  matches(candidate: string | undefined): boolean {
    if (!candidate || !existsSync(this.path)) return false;
    const expected = Buffer.from(readFileSync(this.path, 'utf8').trim().toUpperCase());
    const given = Buffer.from(candidate.trim().toUpperCase());
    return expected.length === given.length && timingSafeEqual(expected, given);
  }

  /** The first admin exists: the code has done its job. */
  remove(): void {
    rmSync(this.path, { force: true });
  }
}

import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isStorageRefusal } from '../db/storage-refusal.ts';

export const REVOKED_TOKENS_FILE = 'revoked-tokens.json';

/** Revoked tokens one account may have listed at once; beyond it the account's tokens all go. */
export const MAX_REVOKED_PER_ACCOUNT = 50;

interface Entry {
  /** The token's `jti`. */
  id: string;
  accountId: number;
  /** The token's own expiry, epoch seconds: after it the entry is useless and dropped. */
  exp: number;
}

/**
 * Tokens revoked one by one, by sign-out and refresh, before their expiry (server/auth/README.md,
 * "Sessions"). Kept in the data dir (0600, replaced atomically) so a restart does not bring a signed-out
 * token back; entries leave when their token would have expired anyway (24 h at most), so the file
 * stays small. Time here is wall-clock seconds, as the tokens' `exp` is.
 *
 * When the storage refuses the file (a full SD card), a revocation still holds in memory, so sign-out and
 * refresh keep working; the next save that succeeds writes it with the rest (docs/storage.md, "When the
 * storage refuses a write"). `onUnsaved` is told each time.
 */
export class RevokedTokens {
  readonly #path: string;
  readonly #onUnsaved: (error: Error) => void;
  readonly #entries = new Map<string, Entry>();

  constructor(dataDir: string, onUnsaved: (error: Error) => void = () => {}) {
    this.#path = join(dataDir, REVOKED_TOKENS_FILE);
    this.#onUnsaved = onUnsaved;
    this.#load();
  }

  has(tokenId: string): boolean {
    return this.#entries.has(tokenId);
  }

  /**
   * Lists one token as revoked. Answers 'account-full' (and lists nothing) when the account already
   * has MAX_REVOKED_PER_ACCOUNT listed: the caller then revokes every token of that account instead
   * and calls forgetAccount, so refreshing in a loop cannot grow the list without bound.
   */
  revoke(entry: Entry, nowS: number): 'revoked' | 'account-full' {
    this.#prune(nowS);
    const listed = [...this.#entries.values()].filter((e) => e.accountId === entry.accountId).length;
    if (listed >= MAX_REVOKED_PER_ACCOUNT) return 'account-full';
    this.#entries.set(entry.id, entry);
    this.#save();
    return 'revoked';
  }

  /**
   * Drops an account's entries once all its tokens are revoked another way (its token version moved on).
   * Only then: dropped first, they would be valid again if that other way failed.
   */
  forgetAccount(accountId: number): void {
    for (const [id, e] of this.#entries) if (e.accountId === accountId) this.#entries.delete(id);
    this.#save();
  }

  #prune(nowS: number): void {
    for (const [id, e] of this.#entries) if (e.exp <= nowS) this.#entries.delete(id);
  }

  #load(): void {
    if (!existsSync(this.#path)) return;
    try {
      const parsed = JSON.parse(readFileSync(this.#path, 'utf8')) as unknown;
      if (!Array.isArray(parsed)) return;
      for (const e of parsed as Entry[]) {
        if (typeof e?.id === 'string' && Number.isSafeInteger(e.accountId) && Number.isFinite(e.exp)) this.#entries.set(e.id, e);
      }
    } catch {
      // A torn file (power cut before the rename) cannot happen with rename; an edited one is ignored.
    }
    this.#prune(Math.floor(Date.now() / 1000));
  }

  #save(): void {
    const tmp = `${this.#path}.tmp`;
    try {
      writeFileSync(tmp, JSON.stringify([...this.#entries.values()]), { mode: 0o600 });
      renameSync(tmp, this.#path);
    } catch (err) {
      if (!isStorageRefusal(err)) throw err;
      this.#onUnsaved(err);
    }
  }
}

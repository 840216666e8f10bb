import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

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
 */
export class RevokedTokens {
  readonly #path: string;
  readonly #entries = new Map<string, Entry>();

  constructor(dataDir: string) {
    this.#path = join(dataDir, REVOKED_TOKENS_FILE);
    this.#load();
  }

  has(tokenId: string): boolean {
    return this.#entries.has(tokenId);
  }

  /**
   * Lists one token as revoked. Answers 'account-full' (and lists nothing) when the account already
   * has MAX_REVOKED_PER_ACCOUNT listed: the caller then revokes every token of that account instead,
   * so refreshing in a loop cannot grow the list without bound.
   */
  revoke(entry: Entry, nowS: number): 'revoked' | 'account-full' {
    this.#prune(nowS);
    const ofAccount = [...this.#entries.values()].filter((e) => e.accountId === entry.accountId);
    if (ofAccount.length >= MAX_REVOKED_PER_ACCOUNT) {
      for (const e of ofAccount) this.#entries.delete(e.id);
      this.#save();
      return 'account-full';
    }
    this.#entries.set(entry.id, entry);
    this.#save();
    return 'revoked';
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
    writeFileSync(tmp, JSON.stringify([...this.#entries.values()]), { mode: 0o600 });
    renameSync(tmp, this.#path);
  }
}

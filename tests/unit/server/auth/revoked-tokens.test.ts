import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_REVOKED_PER_ACCOUNT, REVOKED_TOKENS_FILE, RevokedTokens } from '../../../../server/auth/revoked-tokens.ts';

const NOW_S = 1_800_000_000;
const entry = (id: string, accountId = 1) => ({ id, accountId, exp: NOW_S + 3_600 });

describe('RevokedTokens', () => {
  let dataDir: string;
  const saved = () => (JSON.parse(readFileSync(join(dataDir, REVOKED_TOKENS_FILE), 'utf8')) as Array<{ id: string }>).map((e) => e.id);
  /** The next write of the file goes to /dev/full, as on a full SD card (ENOSPC). */
  const fillTheCard = () => symlinkSync('/dev/full', join(dataDir, `${REVOKED_TOKENS_FILE}.tmp`));
  const makeRoom = () => rmSync(join(dataDir, `${REVOKED_TOKENS_FILE}.tmp`));

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'revoked-tokens-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('keeps a revocation across a restart', () => {
    new RevokedTokens(dataDir).revoke(entry('a'), NOW_S);
    expect(new RevokedTokens(dataDir).has('a')).toBe(true);
  });

  it('holds a revocation in memory when the storage refuses the file, and writes it with the next one that fits', () => {
    const unsaved: string[] = [];
    const revoked = new RevokedTokens(dataDir, (err) => unsaved.push((err as Error & { code: string }).code));
    fillTheCard();
    expect(revoked.revoke(entry('a'), NOW_S)).toBe('revoked');
    expect(revoked.has('a')).toBe(true);
    expect(unsaved).toEqual(['ENOSPC']);

    makeRoom();
    revoked.revoke(entry('b'), NOW_S);
    expect(saved()).toEqual(['a', 'b']);
  });

  it('lets an account that is full keep its entries until forgetAccount, after its tokens went another way', () => {
    const revoked = new RevokedTokens(dataDir);
    for (let i = 0; i < MAX_REVOKED_PER_ACCOUNT; i++) revoked.revoke(entry(`t${i}`), NOW_S);
    revoked.revoke(entry('other', 2), NOW_S);

    expect(revoked.revoke(entry('one-too-many'), NOW_S)).toBe('account-full');
    expect(revoked.has('t0')).toBe(true);
    expect(revoked.has('one-too-many')).toBe(false);

    revoked.forgetAccount(1);
    expect(revoked.has('t0')).toBe(false);
    expect(revoked.has('other')).toBe(true);
    expect(saved()).toEqual(['other']);
  });

  it('still throws what is not the storage refusing', () => {
    const revoked = new RevokedTokens(dataDir);
    rmSync(dataDir, { recursive: true });
    expect(() => revoked.revoke(entry('a'), NOW_S)).toThrow(/ENOENT/);
  });
});

import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNT, DEMO_PASSWORD_HASH } from '../../../server/auth/feature.ts';
import { ARGON2_OPTIONS, verifyPassword } from '../../../server/auth/passwords.ts';

describe('the demo account\'s precomputed password hash', () => {
  it('is the demo password under the gateway\'s own argon2id options', async () => {
    const { memoryCost, timeCost, parallelism } = ARGON2_OPTIONS;
    expect(DEMO_PASSWORD_HASH.startsWith(`$argon2id$v=19$m=${memoryCost},t=${timeCost},p=${parallelism}$`)).toBe(true);
    expect(await verifyPassword(DEMO_PASSWORD_HASH, DEMO_ACCOUNT.password)).toBe(true);
    expect(await verifyPassword(DEMO_PASSWORD_HASH, `${DEMO_ACCOUNT.password}!`)).toBe(false);
  });
});

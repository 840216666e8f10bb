import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';

// The session store keeps the token in localStorage; Node has none, so a plain map stands in for it.
const storage = new Map<string, string>();
vi.stubGlobal('localStorage', {
  getItem: (key: string) => storage.get(key) ?? null,
  setItem: (key: string, value: string) => void storage.set(key, value),
  removeItem: (key: string) => void storage.delete(key),
});
vi.stubGlobal('location', { pathname: '/dashboard', assign: () => {} });
// Test files share their worker (vitest.config.ts): the next file must not find these.
afterAll(() => vi.unstubAllGlobals());

const { getToken, onUnauthorized, replacingToken, saveSession, signalUnauthorized } = await import('../../../web/src/api/session-store.ts');
const user = { username: 'grower' } as never;
const settle = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('a refused token signs out only while it is the session', () => {
  let signedOut = 0;
  beforeEach(() => {
    storage.clear();
    signedOut = 0;
    onUnauthorized(() => signedOut++);
    saveSession('old', user);
  });

  it('signs out at once when the token in use is refused', () => {
    signalUnauthorized('old');
    expect(signedOut).toBe(1);
    expect(getToken()).toBeNull();
  });

  it('ignores a refusal of a token already replaced', () => {
    saveSession('new', user);
    signalUnauthorized('old');
    expect(signedOut).toBe(0);
    expect(getToken()).toBe('new');
  });

  it('waits for a password change in flight: the old socket closed with 4401 before the answer is no sign-out', async () => {
    let answer!: (token: string) => void;
    const change = replacingToken(new Promise<string>((resolve) => (answer = resolve)));
    signalUnauthorized('old'); // the gateway revoked the old token while answering
    expect(signedOut).toBe(0);
    answer('new');
    saveSession(await change, user);
    await settle();
    expect(signedOut).toBe(0);
    expect(getToken()).toBe('new');
  });

  it('still signs out when the replacing call failed and the old token stays refused', async () => {
    const change = replacingToken(Promise.reject(new Error('offline')));
    signalUnauthorized('old');
    await change.catch(() => undefined);
    await settle();
    expect(signedOut).toBe(1);
  });
});

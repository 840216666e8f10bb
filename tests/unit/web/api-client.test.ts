import { afterAll, describe, expect, it, vi } from 'vitest';

// The client reads the token from localStorage (none in Node: a map stands in) and calls fetch, stubbed
// here with answers the network can give.
const storage = new Map<string, string>([['token', 'a-token']]);
vi.stubGlobal('localStorage', {
  getItem: (key: string) => storage.get(key) ?? null,
  setItem: (key: string, value: string) => void storage.set(key, value),
  removeItem: (key: string) => void storage.delete(key),
});
let answer: () => Response = () => new Response('{}');
vi.stubGlobal('fetch', async () => answer());
afterAll(() => vi.unstubAllGlobals());

const { api, ApiError, NETWORK_ERROR, SERVER_ERROR } = await import('../../../web/src/api/client.ts');

/** A 200 whose headers came and whose body was then cut off (a page reloading mid-answer). */
const cutOffAfterHeaders = () =>
  new Response(new ReadableStream({ start: (controller) => controller.error(new TypeError('terminated')) }), { status: 200, headers: { 'content-type': 'application/json' } });

async function failureOf(call: Promise<unknown>): Promise<InstanceType<typeof ApiError>> {
  try {
    await call;
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('the call succeeded');
}

describe('the API client', () => {
  it('reads an answer whose body was cut off after its headers as no answer (status 0), not as the gateway refusing', async () => {
    answer = cutOffAfterHeaders;
    const failure = await failureOf(api.get('/api/auth/me'));
    expect(failure.status).toBe(0);
    expect(failure.message).toBe(NETWORK_ERROR);
  });

  it('still reads a whole answer that is not the envelope as a server error with its status', async () => {
    answer = () => new Response('<html>proxy error</html>', { status: 200 });
    const failure = await failureOf(api.get('/api/auth/me'));
    expect(failure.status).toBe(200);
    expect(failure.message).toBe(SERVER_ERROR);
  });

  it('returns the data of a whole envelope', async () => {
    answer = () => new Response(JSON.stringify({ success: true, data: { username: 'grower' } }));
    expect(await api.get('/api/auth/me')).toEqual({ username: 'grower' });
  });
});

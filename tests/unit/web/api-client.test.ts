import { afterAll, describe, expect, it, vi } from 'vitest';

// The client reads the token from localStorage (none in Node: a map stands in) and calls fetch, stubbed
// here with answers the network can give.
const storage = new Map<string, string>([['token', 'a-token']]);
vi.stubGlobal('localStorage', {
  getItem: (key: string) => storage.get(key) ?? null,
  setItem: (key: string, value: string) => void storage.set(key, value),
  removeItem: (key: string) => void storage.delete(key),
});
let answer: (signal: AbortSignal) => Response | Promise<Response> = () => new Response('{}');
vi.stubGlobal('fetch', async (_path: string, init: RequestInit) => answer(init.signal!));
afterAll(() => vi.unstubAllGlobals());

const { api, ApiError, NETWORK_ERROR, REQUEST_TIMEOUT_MS, SERVER_ERROR } = await import('../../../web/src/api/client.ts');
const { PREVIEW_TIMEOUT_MS, previewAutomation } = await import('../../../web/src/api/automation.ts');

/** A gateway that never answers: the request ends only when the client aborts it. */
const neverAnswers = (signal: AbortSignal) => new Promise<Response>((_resolve, reject) => signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));

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

  it('gives up on a request after its timeout: 30 s, or longer for a call that asks (a rule preview)', async () => {
    vi.useFakeTimers();
    try {
      answer = neverAnswers;
      const usual = failureOf(api.get('/api/auth/me'));
      const preview = failureOf(previewAutomation('fan-1', { temperatureHigh: 24 }, 168));
      let previewSettled = false;
      void preview.then(() => (previewSettled = true));
      await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS);
      expect((await usual).status).toBe(0);
      expect(previewSettled).toBe(false);
      await vi.advanceTimersByTimeAsync(PREVIEW_TIMEOUT_MS - REQUEST_TIMEOUT_MS);
      expect((await preview).status).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});

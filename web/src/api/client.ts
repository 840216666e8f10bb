// The one fetch wrapper every screen uses: same origin, bearer token, 30 s timeout, JSON envelope.
// Error texts follow docs/product.md §8; a 401 on an authenticated call signs the user out (docs/product.md §2).
//
//   const devices = await api.get<Device[]>('/api/devices/greenhouse-001');   // resolves to `data`
//   await api.post('/api/devices', body);  api.put(...);  api.del(...);
//   await api.download('/api/alerts/export/greenhouse-001', 'alerts.csv');    // CSV exports
//   api.request<T>(...) gives the whole envelope when a screen needs `message` or top-level fields.
import { humanFailure } from './human-errors.ts';
import { getToken, signalUnauthorized } from './session-store.ts';

export const REQUEST_TIMEOUT_MS = 30_000;
export const SERVER_ERROR = 'Server error occurred';
export const NETWORK_ERROR = 'Network error - Please check your internet connection and try again';

/** The JSON envelope of every answer (docs/decisions.md, Contract). */
export interface Envelope<T> {
  success: boolean;
  data: T;
  message?: string;
  errors?: { field: string; message: string }[];
  [extra: string]: unknown;
}

/** A failed call: `message` is already the text to show the user. `status` is 0 when no response came. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly body: unknown = null,
    /** The server's own message, null when it gave none (screens then use their default text). */
    readonly serverMessage: string | null = null,
    /** When the gateway said asking again is worth it (its Retry-After, in seconds), in ms; null when it did not. */
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface RequestOptions {
  /** Send no bearer token and do not treat 401 as "session expired" (login, register, demo hint). */
  anonymous?: boolean;
  signal?: AbortSignal;
  /** How long to wait for the answer before giving up (REQUEST_TIMEOUT_MS unless a call needs longer). */
  timeoutMs?: number;
}

async function send(method: string, path: string, body: unknown, options: RequestOptions): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const token = options.anonymous ? null : getToken();
  if (token) headers.Authorization = `Bearer ${token}`;

  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? REQUEST_TIMEOUT_MS);
  const onCallerAbort = () => controller.abort();
  options.signal?.addEventListener('abort', onCallerAbort);
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: controller.signal,
    });
  } catch (err) {
    // Caller cancellation (e.g. TanStack Query) must stay an AbortError so it is not reported.
    if (options.signal?.aborted) throw err;
    throw new ApiError(NETWORK_ERROR, 0);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onCallerAbort);
  }

  if (!response.ok) {
    const payload = await response.json().catch(() => null);
    const serverMessage =
      humanFailure(payload) ??
      (payload && typeof payload === 'object' && typeof (payload as { message?: unknown }).message === 'string'
        ? (payload as { message: string }).message || null
        : null);
    if (response.status === 401 && token) signalUnauthorized(token);
    throw new ApiError(serverMessage ?? SERVER_ERROR, response.status, payload, serverMessage, retryAfterMsOf(response.headers.get('Retry-After')));
  }
  return response;
}

function parseJsonOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** Retry-After as a number of seconds (the gateway never sends a date), in ms; null when absent or not one. */
export function retryAfterMsOf(header: string | null): number | null {
  if (header === null || !/^\d+$/.test(header.trim())) return null;
  return Number(header.trim()) * 1000;
}

async function request<T>(method: string, path: string, body?: unknown, options: RequestOptions = {}): Promise<Envelope<T>> {
  const response = await send(method, path, body, options);
  let text: string;
  try {
    text = await response.text();
  } catch (err) {
    // The answer was cut off after its headers (the page reloading, the link lost): no answer, as when
    // fetch itself fails. A 200 whose body never came must not read as the gateway refusing.
    if (options.signal?.aborted) throw err;
    throw new ApiError(NETWORK_ERROR, 0);
  }
  const payload = parseJsonOrNull(text) as Envelope<T> | null;
  if (!payload || typeof payload !== 'object') throw new ApiError(SERVER_ERROR, response.status);
  if (payload.success === false) {
    throw new ApiError(payload.message || SERVER_ERROR, response.status, payload, payload.message || null);
  }
  return payload;
}

async function download(path: string, filename: string): Promise<void> {
  // fetch with the bearer header and hand the browser a blob: a token must never appear in a URL.
  const response = await send('GET', path, undefined, {});
  const blob = await response.blob();
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Give the browser a moment to start the download before revoking.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export const api = {
  request,
  get: async <T>(path: string, options?: RequestOptions) => (await request<T>('GET', path, undefined, options)).data,
  post: async <T>(path: string, body?: unknown, options?: RequestOptions) => (await request<T>('POST', path, body ?? {}, options)).data,
  put: async <T>(path: string, body?: unknown, options?: RequestOptions) => (await request<T>('PUT', path, body ?? {}, options)).data,
  del: async <T>(path: string, options?: RequestOptions) => (await request<T>('DELETE', path, undefined, options)).data,
  download,
};

/**
 * The text to show for a failed action: the server's message, the network text when nothing answered,
 * else the screen's default (docs/product.md §8: 'Login failed', 'Failed to control device', ...).
 */
export function errorMessage(err: unknown, fallback: string): string {
  if (err instanceof ApiError) return err.serverMessage ?? (err.status === 0 ? err.message : fallback);
  if (err instanceof Error && err.message) return err.message;
  return fallback;
}

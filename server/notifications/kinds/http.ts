import { invalid } from '../../domain/errors.ts';

/** Refuses anything but an absolute http(s) address, naming the field. */
export function requireHttpUrl(value: string, field: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid(`${field} must be an http(s) URL`, field);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid(`${field} must be an http(s) URL`, field);
  return url;
}

/** Error bodies are cut: a receiver's HTML error page has no place in the delivery log. */
const MAX_DETAIL_CHARS = 200;

/**
 * POSTs and resolves with "HTTP <status>" on a 2xx; throws a readable reason otherwise (the status and
 * the start of the answer, the connection error, or "timed out"). Redirects are refused: a signed body
 * must reach the address the admin entered, not wherever it points.
 */
export async function postHttp(url: string, init: { headers: Record<string, string>; body: string; signal: AbortSignal }): Promise<{ status: number; text: string }> {
  let response: Response;
  try {
    response = await fetch(url, { method: 'POST', headers: init.headers, body: init.body, signal: init.signal, redirect: 'manual' });
  } catch (err) {
    throw new Error(reasonOf(err, init.signal), { cause: err });
  }
  let text: string;
  try {
    text = await response.text();
  } catch (err) {
    throw new Error(reasonOf(err, init.signal), { cause: err });
  }
  if (response.status < 200 || response.status > 299) {
    throw new Error(`HTTP ${response.status}${text ? `: ${text.slice(0, MAX_DETAIL_CHARS)}` : ''}`);
  }
  return { status: response.status, text };
}

function reasonOf(err: unknown, signal: AbortSignal): string {
  if (signal.aborted) return 'timed out';
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (err instanceof Error ? err.message : String(err));
}

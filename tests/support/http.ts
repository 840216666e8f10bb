import { setupCodeOf } from './setup-code.ts';

/** A small HTTP client over real sockets (fetch) for integration tests. */
export interface HttpResult<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export function httpClient(baseUrl: string) {
  async function request<T = any>(
    method: string,
    path: string,
    options: { token?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
  ): Promise<HttpResult<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | undefined;
    if (options.rawBody !== undefined) {
      body = options.rawBody;
      headers['content-type'] ??= 'application/json';
    } else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    const send = () => fetch(`${baseUrl}${path}`, { method, headers, body });
    // A kept-alive socket the server closed as idle just as fetch reused it resets (a known race of HTTP
    // keep-alive, most likely right after a test held the loop). A GET changes nothing: send it again once,
    // as browsers do. Anything else fails as it would for a client.
    const response = await send().catch((err: Error & { cause?: { code?: string } }) => {
      if (method === 'GET' && (err.cause?.code === 'ECONNRESET' || err.cause?.code === 'UND_ERR_SOCKET')) return send();
      throw err;
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // keep text
    }
    return { status: response.status, body: parsed as T, headers: response.headers };
  }
  return {
    baseUrl,
    request,
    get: <T = any>(path: string, token?: string) => request<T>('GET', path, { token }),
    post: <T = any>(path: string, body?: unknown, token?: string) => request<T>('POST', path, { body, token }),
    put: <T = any>(path: string, body?: unknown, token?: string) => request<T>('PUT', path, { body, token }),
    del: <T = any>(path: string, token?: string) => request<T>('DELETE', path, { token }),
  };
}

export type HttpClient = ReturnType<typeof httpClient>;

/**
 * Registers an account over HTTP and returns its token. Without `adminToken` it is a self-registration:
 * on a fresh gateway the first one carries the setup code from the data dir (as the owner would) and
 * becomes the admin; later ones are pending under `approval` until an admin grants them. Accounts a test
 * needs with a role are created with the admin's token.
 */
export async function registerUser(
  http: HttpClient,
  user: { username: string; password?: string; email?: string; role?: 'admin' | 'operator' | 'viewer' },
  adminToken?: string,
): Promise<string> {
  const setupCode = adminToken ? undefined : setupCodeOf(http.baseUrl);
  const result = await http.request('POST', '/api/auth/register', {
    body: { password: 'correct-horse-1', email: `${user.username}@example.com`, ...user, ...(setupCode ? { setupCode } : {}) },
    token: adminToken,
  });
  if (result.status !== 201) throw new Error(`register ${user.username}: ${result.status} ${JSON.stringify(result.body)}`);
  return result.body.token as string;
}

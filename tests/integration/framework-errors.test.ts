import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';
import { httpClient, registerUser } from '../support/http.ts';

/**
 * Requests refused before any route sees them (a path that is not valid URL encoding, a parameter past
 * the router's limit, headers past Node's limit, bytes that are not HTTP) answer in the API's envelope
 * with the status that says so and a message naming what was wrong, over a raw socket: fetch refuses to
 * send most of them.
 */
let gw: TestGateway;
let token: string;

beforeAll(async () => {
  gw = await startTestGateway();
  token = await registerUser(httpClient(gw.url), { username: 'owner' });
});
afterAll(() => gw.dispose());

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: any;
}

/** Sends `request` as it is and reads the answer until the server closes or the body is complete. */
function raw(request: string, url = gw.url): Promise<RawAnswer> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    const chunks: Buffer[] = [];
    const finish = () => {
      const text = Buffer.concat(chunks).toString();
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...headerLines] = head.split('\r\n');
      const headers = Object.fromEntries(headerLines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      const bodyText = rest.join('\r\n\r\n');
      let body: unknown = bodyText;
      try {
        body = JSON.parse(bodyText);
      } catch {
        // keep the text
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
      socket.destroy();
    };
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      const text = Buffer.concat(chunks).toString();
      const length = /content-length: (\d+)/i.exec(text)?.[1];
      const headEnd = text.indexOf('\r\n\r\n');
      if (length !== undefined && headEnd >= 0 && Buffer.byteLength(text.slice(headEnd + 4)) >= Number(length)) finish();
    });
    // The server may close while the client is still sending (a header past the limit): what it wrote is the answer.
    socket.on('error', (err) => (chunks.length > 0 ? finish() : reject(err)));
    socket.on('close', () => (chunks.length > 0 ? finish() : reject(new Error('closed without an answer'))));
    socket.write(request);
  });
}

const get = (path: string, url = gw.url) => raw(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nConnection: close\r\n\r\n`, url);

function expectSecured(answer: RawAnswer) {
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  expect(answer.headers['content-security-policy']).toContain("default-src 'self'");
  expect(answer.headers['x-content-type-options']).toBe('nosniff');
  expect(answer.headers['cache-control']).toBe('no-store');
}

describe('requests refused before routing answer in the envelope', () => {
  it('a path that is not valid URL encoding: 400 naming the parameter', async () => {
    const answer = await get('/api/devices/%ZZ/log');
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      success: false,
      message: 'Invalid path: deviceId is not valid URL encoding (a % must be followed by two hex digits)',
      errors: [{ field: 'deviceId', message: 'Invalid path: deviceId is not valid URL encoding (a % must be followed by two hex digits)' }],
    });
    expectSecured(answer);
    expect((await get('/api/devices/%ZZ')).body.message).toMatch(/^Invalid path: greenhouseId is not valid URL encoding/);
    // Where no route takes the segment, the message says it of the path.
    expect((await get('/api/nothing/%ZZ')).body).toMatchObject({ success: false, message: expect.stringMatching(/^Invalid path: the path is not valid URL encoding/) });
  });

  it('a path parameter past the router\'s limit: 414 naming it', async () => {
    const answer = await get(`/api/devices/${'a'.repeat(5000)}/log`);
    expect(answer.status).toBe(414);
    expect(answer.body).toMatchObject({ success: false, message: 'Invalid path: deviceId is too long (at most 100 characters)' });
    expectSecured(answer);
    // Under the router's limit, the route's own schema answers (400 naming the field).
    const schema = await get(`/api/devices/${'a'.repeat(80)}/log`);
    expect(schema.status).toBe(400);
    expect(schema.body.message).toMatch(/deviceId/);
  });

  it('headers past Node\'s limit: 431 saying so', async () => {
    const answer = await raw(`GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${'x'.repeat(60_000)}\r\nConnection: close\r\n\r\n`);
    expect(answer.status).toBe(431);
    expect(answer.body).toEqual({ success: false, message: 'Request headers are too large: at most 16 kB in all, the request line included' });
    expectSecured(answer);
  });

  it('bytes that are not HTTP: 400 saying so', async () => {
    const answer = await raw('HELLO THERE\r\n\r\n');
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ success: false, message: expect.stringMatching(/^The request is not valid HTTP/) });
  });

  it('keeps serving everything else as before', async () => {
    const health = await get('/api/health');
    expect(health.status).toBe(200);
    expect(health.body.success).toBe(true);
    const unknown = await get('/api/no/such/route');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ success: false, message: 'Route GET /api/no/such/route not found' });
  });
});

describe('with the dashboard served (its wildcard route catches what the API router does not take)', () => {
  let withDashboard: TestGateway;
  const webRoot = mkdtempSync(join(tmpdir(), 'greenhouse-web-'));
  beforeAll(async () => {
    writeFileSync(join(webRoot, 'index.html'), '<!doctype html><title>dashboard</title>');
    withDashboard = await startTestGateway({}, { webRoot });
  });
  afterAll(async () => {
    await withDashboard.dispose();
    rmSync(webRoot, { recursive: true, force: true });
  });

  it('an over-long API path parameter is still a 414 naming it, not a 404', async () => {
    const answer = await get(`/api/devices/${'a'.repeat(5000)}/log`, withDashboard.url);
    expect(answer.status).toBe(414);
    expect(answer.body).toMatchObject({ success: false, message: 'Invalid path: deviceId is too long (at most 100 characters)' });
    expect(answer.headers['content-security-policy']).toContain("default-src 'self'");
    expect((await get(`/api/nothing/${'a'.repeat(5000)}`, withDashboard.url)).status).toBe(404);
  });

  it('a dashboard page with a long path is the page; a badly encoded one a 400 in the envelope', async () => {
    expect((await get(`/dashboard/${'b'.repeat(300)}`, withDashboard.url)).status).toBe(200);
    expect((await get('/dashboard/%ZZ', withDashboard.url)).body).toMatchObject({ success: false, message: expect.stringMatching(/^Invalid path: the path is not valid URL encoding/) });
  });
});

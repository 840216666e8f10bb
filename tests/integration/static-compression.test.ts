import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain JavaScript build script without type declarations
import { compressTree } from '../../scripts/compress-web.mjs';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';

/** A raw GET (fetch would decode the body): status, headers and the bytes as sent. */
function rawGet(url: string, acceptEncoding: string | null): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: acceptEncoding === null ? {} : { 'accept-encoding': acceptEncoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('pre-compressed dashboard assets', () => {
  let gw: TestGateway;
  let webRoot: string;
  const script = `export const plants = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => ({ id: i, name: `tomato ${i}` })))};\n`;
  const html = `<!doctype html><html><head><title>Greenhouse Dashboard</title></head><body>${'<div id="root"></div>'.repeat(30)}</body></html>`;

  beforeAll(async () => {
    webRoot = mkdtempSync(join(tmpdir(), 'web-compressed-'));
    mkdirSync(join(webRoot, 'assets'));
    writeFileSync(join(webRoot, 'index.html'), html);
    writeFileSync(join(webRoot, 'assets', 'app-123.js'), script);
    writeFileSync(join(webRoot, 'assets', 'tiny-1.js'), 'x()');
    compressTree(webRoot);
    gw = await startTestGateway({}, { webRoot });
  });
  afterAll(() => gw.dispose());

  it('writes a brotli and a gzip copy of each text asset at build, and leaves tiny files alone', () => {
    expect(brotliDecompressSync(readFileSync(join(webRoot, 'assets', 'app-123.js.br'))).toString()).toBe(script);
    expect(gunzipSync(readFileSync(join(webRoot, 'assets', 'app-123.js.gz'))).toString()).toBe(script);
    expect(() => readFileSync(join(webRoot, 'assets', 'tiny-1.js.br'))).toThrow(/ENOENT/);
  });

  it('sends the brotli copy with Content-Encoding to a browser that accepts it', async () => {
    const res = await rawGet(`${gw.url}/assets/app-123.js`, 'gzip, deflate, br');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toContain('javascript');
    expect(res.headers.vary).toContain('Accept-Encoding');
    expect(res.headers['cache-control']).toContain('immutable');
    expect(res.body.length).toBeLessThan(script.length / 4);
    expect(brotliDecompressSync(res.body).toString()).toBe(script);
  });

  it('sends gzip to a client without brotli, and the original to one that accepts neither', async () => {
    const gzip = await rawGet(`${gw.url}/assets/app-123.js`, 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).toString()).toBe(script);

    for (const accept of [null, 'identity']) {
      const plain = await rawGet(`${gw.url}/assets/app-123.js`, accept);
      expect(plain.status).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body.toString()).toBe(script);
    }
  });

  it('sends a file without a compressed copy as it is, whatever the browser accepts', async () => {
    const res = await rawGet(`${gw.url}/assets/tiny-1.js`, 'br, gzip');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body.toString()).toBe('x()');
  });

  it('compresses index.html for deep links too', async () => {
    const res = await rawGet(`${gw.url}/dashboard/sensors`, 'br');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toContain('text/html');
    expect(brotliDecompressSync(res.body).toString()).toBe(html);
  });

  it('answers / with index.html, and never a file outside the web root (one wildcard route looks files up when asked)', async () => {
    const root = await rawGet(`${gw.url}/`, null);
    expect(root.status).toBe(200);
    expect(root.body.toString()).toBe(html);
    const secret = join(webRoot, '..', `${basename(webRoot)}-secret.txt`);
    writeFileSync(secret, 'not for the LAN');
    for (const path of [`/%2e%2e/${basename(secret)}`, `/assets/%2e%2e/%2e%2e/${basename(secret)}`, `/..%2f${basename(secret)}`]) {
      const res = await rawGet(`${gw.url}${path}`, null);
      expect(res.body.toString(), path).not.toContain('not for the LAN');
    }
    rmSync(secret);
  });

  it('leaves /api answers uncompressed JSON', async () => {
    const res = await rawGet(`${gw.url}/api/health`, 'br, gzip');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(res.body.toString()).success).toBe(true);
  });
});

import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { X509Certificate } from 'node:crypto';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, ConfigError } from '../../server/config/load.ts';
import { createCertificateAuthority, issueServerCertificate } from '../../server/https/x509.ts';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';
import { httpClient, registerUser } from '../support/http.ts';
import { httpsRequest, toLoopback } from '../support/https.ts';

const LAN_NAME = 'greenhouse.test';

function httpsBase(gw: TestGateway, host = LAN_NAME): string {
  return `https://${host}:${new URL(gw.httpsUrl!).port}`;
}

describe('HTTPS from the local CA', () => {
  let gw: TestGateway;
  let ca: string;
  let token: string;
  beforeAll(async () => {
    gw = await startTestGateway({ https: { port: 0, hostNames: [LAN_NAME] } });
    ca = readFileSync(join(gw.dataDir, 'tls', 'ca.crt'), 'utf8');
    token = await registerUser(httpClient(gw.url), { username: 'owner' });
  });
  afterAll(() => gw.dispose());

  it('serves the dashboard API over HTTPS to a client that trusts only the CA, by LAN name and by address', async () => {
    for (const host of [LAN_NAME, '127.0.0.1', 'localhost']) {
      const answer = await httpsRequest(`${httpsBase(gw, host)}/api/health`, { ca });
      expect(answer.status, host).toBe(200);
      expect(JSON.parse(answer.text).success).toBe(true);
    }
  });

  it('keeps HTTP working beside it', async () => {
    expect((await httpClient(gw.url).get('/api/health')).status).toBe(200);
  });

  it('issues a server certificate a browser accepts: the names as subjectAltNames, serverAuth, signed by the CA', () => {
    const server = new X509Certificate(readFileSync(join(gw.dataDir, 'tls', 'server.crt')));
    const authority = new X509Certificate(ca);
    expect(server.verify(authority.publicKey)).toBe(true);
    expect(server.checkIssued(authority)).toBe(true);
    expect(authority.ca).toBe(true);
    expect(server.ca).toBe(false);
    expect(server.subjectAltName).toContain(`DNS:${LAN_NAME}`);
    expect(server.subjectAltName).toContain('DNS:localhost');
    expect(server.subjectAltName).toContain('IP Address:127.0.0.1');
    expect(server.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1']);
    const days = (Date.parse(server.validTo) - Date.parse(server.validFrom)) / 86_400_000;
    expect(days).toBeLessThanOrEqual(398 + 1);
  });

  it('keeps the private keys to the gateway: mode 0600 in a 0700 folder', () => {
    const dir = join(gw.dataDir, 'tls');
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'ca.key')).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'server.key')).mode & 0o777).toBe(0o600);
  });

  it('offers the CA for download without a token, as a certificate a phone installs, and never a key', async () => {
    const res = await fetch(`${gw.url}/api/https/ca.crt`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-x509-ca-cert');
    expect(res.headers.get('content-disposition')).toContain('greenhouse-gateway-ca.crt');
    const body = await res.text();
    expect(body).toBe(ca);
    expect(body).not.toContain('PRIVATE KEY');
  });

  it('tells a signed-in user the addresses, the expiry and the CA fingerprint; nothing without a token', async () => {
    expect((await httpClient(gw.url).get('/api/https')).status).toBe(401);
    const res = await httpClient(gw.url).get('/api/https', token);
    expect(res.status).toBe(200);
    const info = res.body.data;
    expect(info).toMatchObject({ enabled: true, source: 'local-ca', port: Number(new URL(gw.httpsUrl!).port) });
    expect(info.urls).toContain(`https://${LAN_NAME}:${info.port}`);
    // No loopback address: the list is what a phone can open. Host names first: what a grower types.
    expect(info.urls.filter((u: string) => /\/\/(localhost|127\.0\.0\.1|\[::1\]):/.test(u))).toEqual([]);
    expect(info.urls).toContain(`https://${LAN_NAME}:${info.port}`);
    const isAddress = info.urls.map((u: string) => /\/\/(\d|\[)/.test(u));
    expect(isAddress).toEqual([...isAddress].sort((a, b) => Number(a) - Number(b)));
    expect(info.ca).toEqual({ fingerprintSha256: new X509Certificate(ca).fingerprint256, expiresAt: expect.any(String), downloadPath: '/api/https/ca.crt' });
  });

  it('carries the websocket over TLS (wss) with the same authentication', async () => {
    const socket = new WebSocket(`wss://${LAN_NAME}:${new URL(gw.httpsUrl!).port}/ws`, { ca, lookup: toLoopback });
    const messages: Array<{ event: string }> = [];
    socket.on('message', (raw) => messages.push(JSON.parse(raw.toString())));
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    socket.send(JSON.stringify({ event: 'authenticate', data: { token } }));
    await expect.poll(() => messages.map((m) => m.event)).toContain('authenticated');
    socket.close();
  });

  it('refuses a Host it does not serve over HTTPS too (421, DNS rebinding)', async () => {
    const answer = await httpsRequest(`${httpsBase(gw)}/api/health`, { ca, headers: { host: 'evil.example' } });
    expect(answer.status).toBe(421);
  });

  it('answers headers past the limit in the envelope over HTTPS too (431), as over HTTP', async () => {
    const answer = await httpsRequest(`${httpsBase(gw)}/api/health`, { ca, headers: { authorization: `Bearer ${'x'.repeat(60_000)}` } });
    expect(answer.status).toBe(431);
    expect(JSON.parse(answer.text)).toMatchObject({ success: false, message: expect.stringMatching(/^Request headers are too large/) });
  });
});

describe('the local CA across restarts', () => {
  it('keeps the CA a phone trusts; issues the server certificate again only when a name is added', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'greenhouse-https-'));
    try {
      let gw = await startTestGateway({ dataDir, https: { port: 0, hostNames: [LAN_NAME] } });
      const ca1 = readFileSync(join(dataDir, 'tls', 'ca.crt'), 'utf8');
      const server1 = readFileSync(join(dataDir, 'tls', 'server.crt'), 'utf8');
      await gw.stop();

      gw = await startTestGateway({ dataDir, https: { port: 0, hostNames: [LAN_NAME] } });
      expect(readFileSync(join(dataDir, 'tls', 'server.crt'), 'utf8')).toBe(server1);
      await gw.stop();

      gw = await startTestGateway({ dataDir, https: { port: 0, hostNames: [LAN_NAME, 'serre.test'] } });
      expect(readFileSync(join(dataDir, 'tls', 'ca.crt'), 'utf8')).toBe(ca1);
      expect(readFileSync(join(dataDir, 'tls', 'server.crt'), 'utf8')).not.toBe(server1);
      const answer = await httpsRequest(`${httpsBase(gw, 'serre.test')}/api/health`, { ca: ca1 });
      expect(answer.status).toBe(200);
      await gw.stop();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe("the grower's own certificate", () => {
  it('is served as it is; there is no local CA to download', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'greenhouse-own-cert-'));
    const nowMs = Date.now();
    const ownCa = await createCertificateAuthority({ commonName: 'Grower CA', nowMs });
    const leaf = await issueServerCertificate({ ca: ownCa, names: ['farm.test', '127.0.0.1'], nowMs });
    writeFileSync(join(dir, 'cert.pem'), leaf.certPem);
    writeFileSync(join(dir, 'key.pem'), leaf.keyPem, { mode: 0o600 });
    const gw = await startTestGateway({ allowedHosts: ['farm.test'], https: { port: 0, certFile: join(dir, 'cert.pem'), keyFile: join(dir, 'key.pem'), hostNames: [] } });
    try {
      const answer = await httpsRequest(`${httpsBase(gw, 'farm.test')}/api/health`, { ca: ownCa.certPem });
      expect(answer.status).toBe(200);
      expect(answer.peerSubjectAltName).toContain('DNS:farm.test');
      const download = await fetch(`${gw.url}/api/https/ca.crt`);
      expect(download.status).toBe(404);
      expect((await download.json()).message).toMatch(/certificate you provided/);
    } finally {
      await gw.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('HTTPS off (the default)', () => {
  it('opens no HTTPS port and has no CA to download', async () => {
    const gw = await startTestGateway();
    try {
      expect(gw.httpsUrl).toBeNull();
      expect((await fetch(`${gw.url}/api/https/ca.crt`)).status).toBe(404);
    } finally {
      await gw.dispose();
    }
  });
});

describe('HTTPS config', () => {
  const problems = (env: Record<string, string>, overrides = {}) => {
    try {
      loadConfig(env, overrides);
      return [];
    } catch (err) {
      return (err as ConfigError).problems;
    }
  };

  it('HTTPS_PORT sets https.port; a bad one names the key', () => {
    expect(loadConfig({ HTTPS_PORT: '8443' }).https.port).toBe(8443);
    expect(problems({ HTTPS_PORT: 'eighty' }).join('\n')).toMatch(/https\.port/);
  });

  it('a certificate without its key, or HTTPS on the HTTP port, is refused naming the key', () => {
    expect(problems({}, { https: { port: 8443, certFile: '/etc/cert.pem', hostNames: [] } }).join('\n')).toMatch(/https\.keyFile/);
    expect(problems({ PORT: '8443', HTTPS_PORT: '8443' }).join('\n')).toMatch(/https\.port \(HTTPS_PORT\): must differ/);
  });
});

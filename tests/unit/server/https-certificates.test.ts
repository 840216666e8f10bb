import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { X509Certificate } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { certificateNames } from '../../../server/http/certificate-names.ts';
import { EARLIEST_ISSUE_MS, issueTimeMs } from '../../../server/https/issue-time.ts';
import { publicUrlOf } from '../../../server/notifications/public-url.ts';
import { ensureLocalCertificate, RENEW_BEFORE_MS } from '../../../server/https/tls-store.ts';

const DAY_MS = 86_400_000;
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'greenhouse-tls-'));
  dirs.push(dir);
  return join(dir, 'tls');
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the local CA store', () => {
  it('renews the server certificate within 30 days of its expiry, from the same CA', async () => {
    const dir = tempDir();
    const nowMs = Date.UTC(2026, 5, 1);
    const first = await ensureLocalCertificate({ dir, names: ['greenhouse.test'], nowMs });
    expect(first.issued).toBe(true);
    expect((await ensureLocalCertificate({ dir, names: ['greenhouse.test'], nowMs: nowMs + 300 * DAY_MS })).issued).toBe(false);
    const later = first.server.notAfterMs - RENEW_BEFORE_MS + DAY_MS;
    const renewed = await ensureLocalCertificate({ dir, names: ['greenhouse.test'], nowMs: later });
    expect(renewed.issued).toBe(true);
    expect(renewed.ca!.certPem).toBe(first.ca!.certPem);
    expect(renewed.server.notAfterMs).toBeGreaterThan(later + 300 * DAY_MS);
    expect(new X509Certificate(readFileSync(join(dir, 'server.crt'))).verify(new X509Certificate(first.ca!.certPem).publicKey)).toBe(true);
  });

  it('issues again when the CA in the folder is not the one that signed the server certificate', async () => {
    const dir = tempDir();
    const other = tempDir();
    const nowMs = Date.UTC(2026, 5, 1);
    await ensureLocalCertificate({ dir, names: ['a.test'], nowMs });
    const foreign = await ensureLocalCertificate({ dir: other, names: ['a.test'], nowMs });
    writeFileSync(join(dir, 'server.crt'), foreign.certPem);
    writeFileSync(join(dir, 'server.key'), foreign.keyPem);
    expect((await ensureLocalCertificate({ dir, names: ['a.test'], nowMs })).issued).toBe(true);
  });
});

describe('issue time', () => {
  it('is the wall clock, never before the floor (a Pi that booted in 1970)', () => {
    expect(issueTimeMs(0)).toBe(EARLIEST_ISSUE_MS);
    expect(issueTimeMs(Date.UTC(2027, 2, 3))).toBe(Date.UTC(2027, 2, 3));
  });
});

describe('certificate names', () => {
  it('covers localhost, the configured names and addresses, never a wildcard listen address or an invalid DNS name', () => {
    const names = certificateNames({ listenHost: '0.0.0.0', allowedHosts: ['serre.example.org', 'bad_name'], hostNames: ['Greenhouse.test'] });
    expect(names).toEqual(expect.arrayContaining(['localhost', '127.0.0.1', 'serre.example.org', 'greenhouse.test']));
    expect(names).not.toContain('0.0.0.0');
    expect(names).not.toContain('bad_name');
    expect(names.filter((n) => /^fe[89ab]/.test(n))).toEqual([]);
    expect(names).toEqual([...names].sort());
  });
});

describe('links in notifications', () => {
  it('point at the https address when HTTPS is on, where the installed dashboard lives', () => {
    const notifications = { telegramApiUrl: 'https://api.telegram.org' };
    expect(publicUrlOf({ port: 8080, notifications, https: { port: 8443 } })).toBe(`https://${hostname()}.local:8443`);
    expect(publicUrlOf({ port: 8080, notifications, https: { port: null } })).toBe(`http://${hostname()}.local:8080`);
    expect(publicUrlOf({ port: 8080, notifications: { ...notifications, publicUrl: 'https://serre.example.org' }, https: { port: 8443 } })).toBe('https://serre.example.org');
  });
});

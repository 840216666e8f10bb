import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SETUP_CODE_FILE } from '../../server/auth/setup-code.ts';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';
import { httpClient, registerUser, type HttpClient } from '../support/http.ts';

/**
 * The owner's recovery command (docs/hardware.md, "Locked out") against a real data dir, beside a
 * running gateway: what it sets is what the gateway accepts at the next request, without a restart.
 * Run from the TypeScript sources through tsx, as `npm run admin` runs their compiled form.
 */
const ROOT = join(import.meta.dirname, '..', '..');

/** Runs the command in its own process; async, so the in-process gateway keeps serving meanwhile. */
function admin(args: string[], options: { dataDir?: string; input?: string } = {}) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/admin.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, GREENHOUSE_CONFIG: '', ...(options.dataDir ? { GREENHOUSE_DATA_DIR: options.dataDir } : {}) },
  });
  child.stdin.end(options.input ?? '');
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise<{ code: number | null; stdout: string; stderr: string; password: string | null }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr, password: /One-time password[^:]*: (\S+)/.exec(stdout)?.[1] ?? null })),
  );
}

describe('npm run admin -- reset-password / create-admin', () => {
  let gw: TestGateway;
  let http: HttpClient;
  let ownerToken: string;
  const signIn = (username: string, password: string) => http.post('/api/auth/login', { username, password });

  beforeAll(async () => {
    gw = await startTestGateway();
    http = httpClient(gw.url);
    ownerToken = await registerUser(http, { username: 'owner' });
    await registerUser(http, { username: 'grower', role: 'operator' }, ownerToken);
  });
  afterAll(() => gw.dispose());

  it('reset-password prints a one-time password once, which signs in; the old password and every old session stop working', async () => {
    const run = await admin(['reset-password', 'OWNER'], { dataDir: gw.dataDir });
    expect(run.code, run.stderr).toBe(0);
    expect(run.password).toMatch(/^[A-Za-z2-9]{5}(-[A-Za-z2-9]{5}){3}$/);
    expect(run.stdout.split(run.password!)).toHaveLength(2); // printed exactly once
    expect((await signIn('owner', 'correct-horse-1')).status).toBe(401);
    const signedIn = await signIn('owner', run.password!);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user.role).toBe('admin');
    expect((await http.get('/api/auth/me', ownerToken)).status).toBe(401);
    expect((await http.get('/api/auth/me', signedIn.body.token)).status).toBe(200);
    // The data dir stays the gateway user's alone.
    expect(statSync(gw.dataDir).mode & 0o777).toBe(0o700);
  });

  it('reset-password --stdin sets the password typed, refusing a weak one and an unknown account without a change', async () => {
    const weak = await admin(['reset-password', 'grower', '--stdin'], { dataDir: gw.dataDir, input: 'password123\n' });
    expect(weak.code).toBe(65);
    expect(weak.stderr).toMatch(/too common/);
    expect((await signIn('grower', 'correct-horse-1')).status).toBe(200);
    const unknown = await admin(['reset-password', 'nobody'], { dataDir: gw.dataDir });
    expect(unknown.code).toBe(67);
    expect(unknown.stderr).toContain("No account named 'nobody'");
    const typed = await admin(['reset-password', 'grower', '--stdin'], { dataDir: gw.dataDir, input: 'tomato-vines-in-june\n' });
    expect(typed.code, typed.stderr).toBe(0);
    expect(typed.password).toBeNull(); // nothing to show: the owner typed it
    expect((await signIn('grower', 'tomato-vines-in-june')).status).toBe(200);
  });

  it('create-admin is refused while an admin exists, and promotes an account when none is left', async () => {
    const refused = await admin(['create-admin', 'grower'], { dataDir: gw.dataDir });
    expect(refused.code).toBe(73);
    expect(refused.stderr).toMatch(/has 1 admin: use reset-password/);
    // The only admin was demoted by hand (or deleted): nobody can manage the gateway any more.
    gw.database.sqlite.prepare("UPDATE users SET role = 'viewer' WHERE lower(username) = 'owner'").run();
    const promoted = await admin(['create-admin', 'grower'], { dataDir: gw.dataDir });
    expect(promoted.code, promoted.stderr).toBe(0);
    const signedIn = await signIn('grower', promoted.password!);
    expect(signedIn.body.user).toMatchObject({ role: 'admin', pending: false });
    expect((await http.get('/api/users', signedIn.body.token)).status).toBe(200);
  });

  it('create-admin makes a new admin on a gateway without accounts and spends the setup code', async () => {
    const fresh = await startTestGateway();
    try {
      expect(existsSync(join(fresh.dataDir, SETUP_CODE_FILE))).toBe(true);
      const run = await admin(['create-admin', 'keeper', '--email', 'keeper@example.com'], { dataDir: fresh.dataDir });
      expect(run.code, run.stderr).toBe(0);
      expect(existsSync(join(fresh.dataDir, SETUP_CODE_FILE))).toBe(false);
      const signedIn = await httpClient(fresh.url).post('/api/auth/login', { username: 'keeper', password: run.password });
      expect(signedIn.body.user).toMatchObject({ role: 'admin', email: 'keeper@example.com' });
    } finally {
      await fresh.dispose();
    }
  });

  it('refuses a data dir without a gateway database instead of creating one, and bad usage with 64', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'greenhouse-admin-'));
    try {
      const run = await admin(['reset-password', 'owner'], { dataDir: empty });
      expect(run.code).toBe(66);
      expect(run.stderr).toContain('No gateway database');
      expect(existsSync(join(empty, 'greenhouse.db'))).toBe(false);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
    expect((await admin(['unlock', 'owner'])).code).toBe(64);
    expect((await admin(['reset-password'])).stderr).toContain('Usage: npm run admin');
  });
});

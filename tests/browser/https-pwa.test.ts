// The dashboard over HTTPS from a LAN host name (not localhost): Chromium maps greenhouse.test to the
// loopback and trusts the gateway's own certificate by its public keys, as a phone that installed the
// gateway's CA would. There the service worker registers, Chromium finds the app installable, Settings
// › Phone App offers the CA, and a push delivered to the service worker becomes a notification.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { certificateFacts } from '../../server/https/certificate-facts.ts';
import { chromiumLaunchArgs, CHROMIUM_PATH } from '../support/chromium-flags.ts';
import { rememberDataDir } from '../support/setup-code.ts';
import { startGatewayForBrowser, signUpViaUi, type BrowserGateway } from './harness.ts';

const LAN_NAME = 'greenhouse.test';
const SCREENS = '/work/screens/https-pwa';
const owner = { username: 'grower', password: 'tomatoes-2026' };

describe('the installable dashboard over HTTPS on the LAN', () => {
  let server: BrowserGateway;
  let browser: Browser;
  let origin: string;
  let caPem: string;
  let launchArgs: string[];
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    server = await startGatewayForBrowser({ overrides: { https: { port: 0, hostNames: [LAN_NAME] } } });
    origin = `https://${LAN_NAME}:${new URL(server.gateway.httpsUrl!).port}`;
    rememberDataDir(origin, server.dataDir);
    caPem = readFileSync(join(server.dataDir, 'tls', 'ca.crt'), 'utf8');
    const trusted = [caPem, readFileSync(join(server.dataDir, 'tls', 'server.crt'), 'utf8')].map((pem) => certificateFacts(pem).spkiSha256);
    launchArgs = await chromiumLaunchArgs([`--host-resolver-rules=MAP ${LAN_NAME} 127.0.0.1`, `--ignore-certificate-errors-spki-list=${trusted.join(',')}`]);
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: launchArgs });
    mkdirSync(SCREENS, { recursive: true });
  });
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => {});
    await browser?.close();
    await server?.stop();
  });

  async function openPhone(baseURL: string): Promise<{ page: Page; context: BrowserContext }> {
    const context = await browser.newContext({ baseURL, viewport: { width: 390, height: 844 }, hasTouch: true });
    context.setDefaultTimeout(10_000);
    contexts.push(context);
    const page = await context.newPage();
    page.on('pageerror', (err) => console.error('[page error]', err.message));
    return { page, context };
  }

  it('is a secure context at https://greenhouse.test: the service worker registers and Chromium finds the app installable', async () => {
    // Installation is refused in an incognito profile (a plain browser context is one): a real profile.
    const profile = mkdtempSync(join(tmpdir(), 'greenhouse-chromium-profile-'));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      args: launchArgs,
      baseURL: origin,
      viewport: { width: 390, height: 844 },
      hasTouch: true,
    });
    try {
      context.setDefaultTimeout(10_000);
      const page = await context.newPage();
      await signUpViaUi(page, owner);
      expect(await page.evaluate(() => window.isSecureContext)).toBe(true);
      expect(new URL(page.url()).origin).toBe(origin);
      const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
      expect(scope).toBe(`${origin}/`);
      await page.reload();
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null);

      const cdp = await context.newCDPSession(page);
      const manifest = (await cdp.send('Page.getAppManifest')) as { url: string; errors: Array<{ message: string }> };
      expect(manifest.url).toBe(`${origin}/manifest.webmanifest`);
      expect(manifest.errors).toEqual([]);
      const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: Array<{ errorId: string }> };
      expect(installabilityErrors).toEqual([]);
      await page.screenshot({ path: join(SCREENS, 'overview-over-https.png') });
    } finally {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    }
  }, 60_000);

  it('Settings › Phone App: the secure addresses, the CA to download with its fingerprint, steps per platform', async () => {
    const { page } = await openPhone(origin);
    await page.goto('/login');
    await page.getByLabel('Username').fill(owner.username);
    await page.getByLabel('Password', { exact: true }).fill(owner.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL('**/dashboard');
    await page.goto('/dashboard/settings?tab=phone');
    // The realtime channel follows the page to wss:// (same origin, same authentication).
    await page.getByText('System Connected').waitFor();
    const section = page.getByTestId('secure-connection');
    await section.getByTestId('connection-state').getByText('This page is on a secure connection').waitFor();
    await section.getByRole('link', { name: origin }).waitFor();
    expect(await section.getByTestId('ca-fingerprint').textContent()).toBe(certificateFacts(caPem).fingerprintSha256);
    const href = await section.getByTestId('download-ca').getAttribute('href');
    const downloaded = await page.evaluate(async (path) => {
      const res = await fetch(path!);
      return { type: res.headers.get('content-type'), text: await res.text() };
    }, href);
    expect(downloaded).toEqual({ type: 'application/x-x509-ca-cert', text: caPem });
    await section.getByText('iPhone and iPad').click();
    await section.getByText('Certificate Trust Settings', { exact: false }).waitFor();
    await page.getByTestId('push-alerts').getByRole('button', { name: 'Turn on alerts on this device' }).waitFor();
    await page.screenshot({ path: join(SCREENS, 'phone-app-tab-https.png'), fullPage: true });
  }, 60_000);

  it('over plain HTTP by the same name, says why the phone cannot install it or get alerts, and where to go', async () => {
    const httpOrigin = `http://${LAN_NAME}:${new URL(server.url).port}`;
    const { page } = await openPhone(httpOrigin);
    await page.goto('/login');
    expect(await page.evaluate(() => window.isSecureContext)).toBe(false);
    await page.getByLabel('Username').fill(owner.username);
    await page.getByLabel('Password', { exact: true }).fill(owner.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL('**/dashboard');
    await page.goto('/dashboard/settings?tab=phone');
    await page.getByTestId('connection-state').getByText('This page is on plain HTTP').waitFor();
    await page.getByTestId('push-needs-https').waitFor();
    await page.getByTestId('https-urls').getByRole('link', { name: origin }).waitFor();
    await page.screenshot({ path: join(SCREENS, 'phone-app-tab-plain-http.png'), fullPage: true });
  }, 60_000);

  it('Turn on alerts: when the browser refuses a subscription, says why and stores nothing', async () => {
    const { page, context } = await openPhone(origin);
    await context.grantPermissions(['notifications'], { origin });
    await page.goto('/login');
    await page.getByLabel('Username').fill(owner.username);
    await page.getByLabel('Password', { exact: true }).fill(owner.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL('**/dashboard');
    await page.goto('/dashboard/settings?tab=phone');
    await page.getByTestId('push-alerts').getByLabel('Alerts to push').selectOption('CRITICAL');
    await page.getByRole('button', { name: 'Turn on alerts on this device' }).click();
    // Chromium refuses push in an incognito profile (as a browser context is) and could not reach its
    // push service here anyway: the refusal is shown in the browser's words, and nothing is stored.
    await page.getByTestId('toast').getByText(/Registration failed/).waitFor();
    await page.getByTestId('push-state').getByText('This device does not receive pushed alerts.').waitFor();
    const stored = await page.evaluate(async () => {
      const res = await fetch('/api/push', { headers: { authorization: `Bearer ${localStorage.getItem('token')}` } });
      return (await res.json()).data.subscriptions;
    });
    expect(stored).toEqual([]);
  }, 60_000);

  it('a push delivered to the service worker becomes a notification that a CRITICAL keeps on screen', async () => {
    // Service-worker registrations are reported for every context of the browser: only this one stays.
    for (const earlier of contexts.splice(0)) await earlier.close();
    const { page, context } = await openPhone(origin);
    await context.grantPermissions(['notifications'], { origin });
    await page.goto('/login');
    await page.evaluate(async () => navigator.serviceWorker.ready);
    await page.reload();
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    const cdp = await context.newCDPSession(page);
    const { targetInfo } = (await cdp.send('Target.getTargetInfo')) as { targetInfo: { targetId: string } };
    // The registration of the worker that controls this page.
    const registrationId = new Promise<string>((resolve) => {
      cdp.on('ServiceWorker.workerVersionUpdated', ({ versions }: { versions: Array<{ registrationId: string; controlledClients?: string[] }> }) => {
        const found = versions.find((v) => v.controlledClients?.includes(targetInfo.targetId));
        if (found) resolve(found.registrationId);
      });
    });
    await cdp.send('ServiceWorker.enable');
    const message = { title: 'CRITICAL alert: temperature low', body: 'Air temperature 1.8 °C', severity: 'CRITICAL', alertId: 'a1', url: '/dashboard/alerts', tag: 'alert-a1' };
    await cdp.send('ServiceWorker.deliverPushMessage', { origin, registrationId: await registrationId, data: JSON.stringify(message) });
    // The worker wakes for the push and shows the notification in its own time: seconds, on a machine
    // whose cores the suite keeps busy (expect.poll's default is 1 s).
    await expect
      .poll(
        () =>
          page.evaluate(async () => {
            const registration = await navigator.serviceWorker.ready;
            return (await registration.getNotifications()).map((n) => ({ title: n.title, body: n.body, tag: n.tag, requireInteraction: n.requireInteraction, data: n.data }));
          }),
        { timeout: 15_000 },
      )
      .toEqual([{ title: message.title, body: message.body, tag: 'alert-a1', requireInteraction: true, data: { url: '/dashboard/alerts', alertId: 'a1' } }]);
  }, 60_000);
});

// The dashboard tells the truth. The real gateway is stopped under an open dashboard and
// started again on the same port and data; maintenance mode and Turn Off All are driven for real.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { httpClient, registerUser } from '../support/http.ts';
import { answerConfirm, type BrowserGateway, closeAll, launchBrowser, releaseBrowser, newPage, signInViaUi, startGatewayForBrowser, toasts } from './harness.ts';

const grower = { username: 'truthful', password: 'tomatoes-2026' };
const CLOCK = /^\d\d:\d\d$/;

describe('a dashboard that tells the truth', () => {
  let server: BrowserGateway;
  let browser: Browser;
  let token: string;
  const contexts: BrowserContext[] = [];

  async function signedIn(path = '/dashboard'): Promise<Page> {
    const { context, page } = await newPage(browser, server.url);
    contexts.push(context);
    await signInViaUi(page, grower);
    if (path !== '/dashboard') await page.goto(path);
    return page;
  }

  const http = () => httpClient(server.url);

  beforeAll(async () => {
    [server, browser] = await Promise.all([startGatewayForBrowser(), launchBrowser()]);
    token = await registerUser(http(), grower);
  });

  // A page left open would go on rendering for the rest of the file (tests/browser/harness.ts).
  afterEach(() => closeAll(contexts));

  afterAll(async () => {
    await releaseBrowser(browser);
    await server?.stop();
  });

  it('gateway stopped: last values stay, marked stale, "Gateway unreachable since HH:MM"; restarted: the link returns without a reload', async () => {
    const page = await signedIn();
    await page.getByTestId('connection-status').getByText('Connected', { exact: true }).waitFor();
    // The card itself first: without it, `undefined !== '---'` would pass at once.
    await page.waitForFunction(() => {
      const value = document.querySelector('[data-testid="reading-temperature"] .stat-value');
      return value !== null && value.textContent !== '---';
    });
    const temperature = await page.getByTestId('reading-temperature').locator('.stat-value').textContent();
    await page.evaluate(() => ((window as unknown as { loadMarker: number }).loadMarker = 17));
    // The other screens' code is fetched in the background once the dashboard is up.
    await page.waitForFunction(() => performance.getEntriesByType('resource').some((e) => e.name.includes('AlertsScreen')));
    // Its file arriving is not the screen loaded: its own imports may still be in flight (on a busy
    // machine). Importing the same URL again settles once the module and everything it needs are in.
    // (A string, so that the test runner does not rewrite the import.)
    await page.evaluate(`import(performance.getEntriesByType('resource').find((e) => e.name.includes('AlertsScreen')).name)`);

    const { port } = new URL(server.url);
    await server.stopKeepingData();

    // Within seconds (the lost link triggers a check), not after the next 15 s poll.
    const notice = page.getByTestId('gateway-unreachable');
    await notice.waitFor({ timeout: 15_000 });
    const since = /Gateway unreachable since (\d\d:\d\d)/.exec((await notice.textContent()) ?? '')?.[1];
    expect(since).toMatch(CLOCK);
    await page.getByTestId('system-status').getByText('Gateway unreachable').waitFor();
    expect(await page.getByText('System Online').count()).toBe(0);
    // Last known values, never an empty greenhouse.
    expect(await page.getByTestId('reading-temperature').locator('.stat-value').textContent()).toBe(temperature);
    await page.getByTestId('reading-temperature').getByTestId('stale-tag').waitFor();
    expect(await page.getByText('All Clear!').count()).toBe(0);
    expect(await page.getByText('No devices configured').count()).toBe(0);
    expect(await page.getByTestId('stat-total-devices').locator('.stat-value').textContent()).toBe('6');
    await page.getByTestId('connection-banner').getByText(`Gateway unreachable since ${since}`).waitFor();
    if (process.env.SCREENSHOT_DIR) await page.screenshot({ path: `${process.env.SCREENSHOT_DIR}/outage-overview.png`, fullPage: true });

    // Another screen opened during the outage says so instead of "No alerts found".
    await page.getByRole('link', { name: 'Alert System' }).click();
    await page.getByTestId('alert-history').getByTestId('unreachable-notice').waitFor();
    expect(await page.getByText('No alerts found').count()).toBe(0);
    await page.getByRole('link', { name: 'Overview' }).click();

    server = await startGatewayForBrowser({ restart: { dataDir: server.dataDir, port: Number(port) } });
    // Back-off is at most 30 s between attempts; focus makes it try at once.
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    await page.getByTestId('connection-status').getByText('Connected', { exact: true }).waitFor({ timeout: 35_000 });
    await toasts(page).filter({ hasText: 'Connected to greenhouse system' }).waitFor();
    await notice.waitFor({ state: 'detached' });
    await page.getByTestId('system-status').getByText('System Online').waitFor();
    expect(await page.evaluate(() => (window as unknown as { loadMarker?: number }).loadMarker)).toBe(17);
  }, 90_000);

  it('a history reload the gateway cannot answer keeps the chart loaded before and says so', async () => {
    const page = await signedIn('/dashboard/sensors');
    const historical = page.getByTestId('historical-data');
    await historical.locator('.trend-chart .u-legend').getByText('Temperature (°C)').waitFor({ timeout: 20_000 });
    const { port } = new URL(server.url);
    await server.stopKeepingData();

    await page.getByRole('button', { name: 'Refresh' }).click();
    await historical.getByTestId('history-stale-note').getByText('Could not refresh the history: showing what was loaded before.', { exact: true }).waitFor();
    expect(await historical.getByTestId('unreachable-notice').count()).toBe(0);
    expect(await historical.locator('.trend-chart .u-legend').getByText('Temperature (°C)').count()).toBe(1);

    server = await startGatewayForBrowser({ restart: { dataDir: server.dataDir, port: Number(port) } });
    await page.getByRole('button', { name: 'Refresh' }).click();
    await historical.getByTestId('history-stale-note').waitFor({ state: 'detached', timeout: 15_000 });
  }, 60_000);

  it('maintenance mode: a notice on every screen, switch-on controls disabled with the reason, switch-off still allowed', async () => {
    await http().post('/api/devices/light-1/control', { action: 'on' }, token);
    server.gateway.settings.updateSystem({ maintenanceMode: true });
    try {
      const page = await signedIn('/dashboard/devices');
      await page.getByTestId('maintenance-notice').getByText('Maintenance mode is on: devices can only be switched off.').waitFor();
      const fan = page.getByTestId('device-fan-1');
      const turnOn = fan.getByRole('button', { name: 'Turn On' });
      expect(await turnOn.isDisabled()).toBe(true);
      // The reason (the gateway's maintenance lock) is on the card and tied to the button for screen readers.
      const describedBy = await turnOn.getAttribute('aria-describedby');
      expect(await page.locator(`#${describedBy}`).textContent()).toMatch(/Maintenance mode/);
      if (process.env.SCREENSHOT_DIR) await page.screenshot({ path: `${process.env.SCREENSHOT_DIR}/maintenance-devices.png`, fullPage: true });
      const light = page.getByTestId('device-light-1');
      await light.getByRole('button', { name: 'Turn Off' }).click();
      await light.getByTestId('device-status').getByText('OFF', { exact: true }).waitFor();
      for (const link of ['Overview', 'Sensor Monitoring', 'Alert System', 'Analytics', 'Settings']) {
        await page.getByRole('complementary', { name: 'Main navigation' }).getByRole('link', { name: link }).click();
        await page.getByTestId('maintenance-notice').waitFor();
      }
    } finally {
      server.gateway.settings.updateSystem({ maintenanceMode: false });
    }
  });

  it('Turn Off All says that auto mode goes off too, and devices then stay off', async () => {
    await http().post('/api/devices/fan-1/automation', { automationRules: { temperatureHigh: -40 }, autoMode: true }, token);
    const page = await signedIn('/dashboard/devices');
    await page.getByTestId('device-fan-1').getByText('AUTO', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Turn Off All Devices' }).click();
    const confirmText = await answerConfirm(page, 'confirm');
    await toasts(page).filter({ hasText: 'auto mode switched off' }).waitFor();
    expect(confirmText).toContain('taken out of auto mode');
    await page.waitForFunction(() => !document.querySelector('[data-testid="device-fan-1"]')?.textContent?.includes('AUTO'));
    const fan = (await http().get('/api/devices/greenhouse-001', token)).body.data.find((d: { deviceId: string }) => d.deviceId === 'fan-1');
    expect(fan).toMatchObject({ autoMode: false, status: 'OFF' });
  });

  it("removes a device from its card after confirming, with 'Device removed'", async () => {
    await http().post('/api/devices', { deviceName: 'Spare Fan', deviceId: 'spare-fan', deviceType: 'FAN', location: 'Bench', powerConsumption: 10 }, token);
    const page = await signedIn('/dashboard/devices');
    const card = page.getByTestId('device-spare-fan');
    await card.getByRole('button', { name: 'Remove Spare Fan' }).click();
    expect(await answerConfirm(page, 'cancel')).toBe('Remove Spare Fan? It is switched off and no longer shown or controlled.');
    expect(await card.count()).toBe(1);
    await card.getByRole('button', { name: 'Remove Spare Fan' }).click();
    await answerConfirm(page, 'confirm');
    await toasts(page).filter({ hasText: 'Device removed' }).waitFor();
    await card.waitFor({ state: 'detached' });
    await page.waitForTimeout(300);
    expect(await toasts(page).filter({ hasText: 'Device removed' }).count()).toBe(1);
    expect((await http().get('/api/devices/greenhouse-001', token)).body.data.some((d: { deviceId: string }) => d.deviceId === 'spare-fan')).toBe(false);
  });

  it('dialogs work by keyboard alone: focus moves in, Tab stays inside, Escape closes, focus returns', async () => {
    const page = await signedIn('/dashboard/devices');
    const opener = page.getByRole('button', { name: 'Add Device' }).first();
    await opener.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Add Device' });
    await dialog.waitFor();
    const focusInDialog = () => page.evaluate(() => !!document.activeElement?.closest('[role="dialog"]'));
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name)).toBe('deviceName');
    for (let i = 0; i < 15; i++) {
      await page.keyboard.press('Tab');
      expect(await focusInDialog()).toBe(true);
    }
    for (let i = 0; i < 5; i++) {
      await page.keyboard.press('Shift+Tab');
      expect(await focusInDialog()).toBe(true);
    }
    await page.keyboard.type('x');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.textContent?.includes('Add Device'))).toBe(true);
  });
});

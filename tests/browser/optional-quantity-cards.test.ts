// CO2, air pressure and root-zone temperature on the dashboard when configured sensors measure them:
// their cards on Sensors and Overview (root temperature in °F when chosen, no value from a faulted
// zone), the CO2 High threshold editable in Settings and listed in the Alerts screen's configuration.
// Screenshots for a person to look at go to /work/screens/sensors-gaps/.
import { mkdirSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ManualClock } from '../../common/clock.ts';
import { type BrowserGateway, closeAll, launchBrowser, releaseBrowser, newPage, signInViaUi, signUpViaUi, startGatewayForBrowser, toasts } from './harness.ts';

const SCREENS = '/work/screens/sensors-gaps';
const INTERVAL_S = 5;

const instances = [
  { sensorId: 'air', kind: 'SHT4X', name: 'Bench air' },
  { sensorId: 'co2', kind: 'SCD4X', name: 'CO₂ by the door' },
  { sensorId: 'baro', kind: 'BME280', address: 0x77, name: 'Potting shed' },
  { sensorId: 'roots', kind: 'DS18B20', w1Id: '28-0316a2796aff', name: 'Tomato roots' },
  { sensorId: 'ldr', kind: 'ADS1115_LDR', name: 'Roof light' },
  { sensorId: 'soil', kind: 'ADS1115_SOIL', name: 'Tomato bed' },
  { sensorId: 'tank', kind: 'HCSR04', triggerPin: 23, echoPin: 24, tankDepthCm: 100, name: 'Rain tank' },
];

describe('cards and thresholds of the quantities a configured sensor measures', () => {
  let server: BrowserGateway;
  let browser: Browser;
  const clock = new ManualClock(Date.now());
  const contexts: BrowserContext[] = [];
  let signedUp = false;
  const user = { username: 'grower', password: 'tomatoes-2026' };

  async function open(path: string, phone = false): Promise<Page> {
    const { context, page } = await newPage(browser, server.url, { phone });
    contexts.push(context);
    // The first page signs up (with the setup code: the admin); the next ones sign in.
    if (signedUp) await signInViaUi(page, user);
    else await signUpViaUi(page, user);
    signedUp = true;
    await page.goto(path);
    return page;
  }
  const value = async (page: Page, key: string) => (await page.getByTestId(`reading-${key}`).locator('.stat-value').textContent())?.trim();

  beforeAll(async () => {
    mkdirSync(SCREENS, { recursive: true });
    [server, browser] = await Promise.all([startGatewayForBrowser({ clock, overrides: { sensors: { instances } } as never }), launchBrowser()]);
    await clock.advanceAsync(2 * INTERVAL_S * 1000);
  });

  // A page left open would go on rendering for the rest of the file (tests/browser/harness.ts).
  afterEach(() => closeAll(contexts));

  afterAll(async () => {
    await releaseBrowser(browser);
    const stopping = server?.stop();
    await clock.advanceAsync(30_000);
    await stopping;
  });

  it('Sensors shows CO2, pressure and root temperature cards with values (desktop 1366 px)', async () => {
    const page = await open('/dashboard/sensors');
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.getByTestId('reading-co2').getByText('CO₂ (ppm)').waitFor();
    await page.getByTestId('reading-pressure').getByText('Air Pressure (hPa)').waitFor();
    await page.getByTestId('reading-rootTemperature').getByText('Root Temperature (°C)').waitFor();
    await page.waitForFunction(() => !document.querySelector('[data-testid="reading-co2"] .stat-value')?.textContent?.includes('---'));
    expect(await value(page, 'co2')).toMatch(/^\d{1,3}(,\d{3})*$/);
    expect(await value(page, 'pressure')).toMatch(/^\d{1,3}(,\d{3})*\.\d$/);
    expect(await value(page, 'rootTemperature')).toMatch(/^-?\d+\.\d$/);
    await page.getByTestId('instance-co2').waitFor();
    await page.screenshot({ path: `${SCREENS}/sensors-co2-1366.png`, fullPage: true });
  });

  it('fits a phone (390 px) with the extra cards, and Overview shows them too', async () => {
    const page = await open('/dashboard/sensors', true);
    await page.getByTestId('reading-co2').waitFor();
    await page.getByTestId('reading-rootTemperature').waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${SCREENS}/sensors-co2-390.png`, fullPage: true });
    await page.goto('/dashboard');
    const overview = page.getByTestId('sensor-overview');
    for (const key of ['co2', 'pressure', 'rootTemperature', 'water']) await overview.getByTestId(`reading-${key}`).waitFor();
  });

  it('root-zone temperature follows the °F preference like air temperature', async () => {
    const page = await open('/dashboard/settings');
    await page.getByRole('tab', { name: 'Notifications' }).click();
    await page.getByRole('radio', { name: /°F/ }).check();
    await page.goto('/dashboard/sensors');
    await page.getByTestId('reading-rootTemperature').getByText('Root Temperature (°F)').waitFor();
    await page.getByTestId('reading-temperature').getByText('Temperature (°F)').waitFor();
    // A root zone in a greenhouse is well above 0 °C = 32 °F: a °F number, not the °C one.
    expect(Number(await value(page, 'rootTemperature'))).toBeGreaterThan(32);
  });

  it('CO2 High in Settings > Alert Thresholds: saved, and listed read-only in the Alert Configuration panel', async () => {
    const page = await open('/dashboard/settings');
    await page.getByRole('tab', { name: 'Alert Thresholds' }).click();
    const field = page.getByLabel('CO₂ High (ppm)');
    expect(await field.inputValue()).toBe('');
    await field.fill('1200');
    await page.getByRole('button', { name: 'Save Thresholds' }).click();
    await toasts(page).filter({ hasText: 'Alert thresholds updated successfully' }).waitFor();
    const settings = server.gateway.settings.get();
    expect(settings.alertThresholds.co2).toEqual({ high: 1200 });
    expect(settings.alertThresholds.temperature).toEqual({ high: 35, low: 10 });
    await page.goto('/dashboard/alerts');
    const config = page.getByTestId('alert-configuration');
    await config.getByText('CO₂ High').waitFor();
    await config.getByText('1200 ppm').waitFor();
  });

  it('every air sensor silent: the CO2 and pressure cards draw no value', async () => {
    for (const id of ['air', 'co2', 'baro']) server.gateway.hardware.simulator!.injectInstanceFault(id, { kind: 'silent' });
    await clock.advanceAsync(6 * INTERVAL_S * 1000);
    const page = await open('/dashboard/sensors');
    await page.getByTestId('reading-co2').and(page.locator('[data-health="fault"]')).waitFor();
    expect(await value(page, 'co2')).not.toMatch(/\d/);
    expect(await value(page, 'pressure')).not.toMatch(/\d/);
    // The root zone is another zone: it goes on.
    expect(await value(page, 'rootTemperature')).toMatch(/\d/);
  });
});

// Sensor Monitoring: live values, the history chart's range and filter, and the empty state.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { fakeSensors, hardwareWith } from '../support/fake-sensors.ts';
import { seedReadings } from '../support/readings.ts';
import { type BrowserGateway, closeAll, launchBrowser, releaseBrowser, newPage, signInViaUi, signUpViaUi, startGatewayForBrowser } from './harness.ts';

const user = { username: 'grower', password: 'tomatoes-2026' };
const HOUR = 3_600_000;

describe('Sensor Monitoring screen', () => {
  let server: BrowserGateway;
  let empty: BrowserGateway;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const signedUp = new Set<string>();

  async function sensorsPage(on: BrowserGateway): Promise<Page> {
    const { context, page } = await newPage(browser, on.url);
    contexts.push(context);
    // The first page on a gateway signs up (with the setup code: the admin); later ones sign in.
    if (signedUp.has(on.url)) await signInViaUi(page, user);
    else await signUpViaUi(page, user);
    signedUp.add(on.url);
    await page.getByRole('link', { name: 'Sensor Monitoring' }).click();
    await page.waitForURL('**/dashboard/sensors');
    return page;
  }

  beforeAll(async () => {
    const fakes = fakeSensors({ climate: { temperatureC: 24.46, humidityPct: 55 }, lux: 812.6, soilPct: 41.25, levelCm: 28 });
    [server, empty, browser] = await Promise.all([
      startGatewayForBrowser({ hardware: hardwareWith(fakes.sensors) }),
      startGatewayForBrowser({ hardware: hardwareWith({}) }), // no sensors, no data
      launchBrowser(),
    ]);
    // A day and a half of history (every 10 minutes), ending an hour ago.
    const now = Date.now();
    seedReadings(server.gateway.database.sqlite, now - 36 * HOUR, now - HOUR, { temperatureC: 21, humidityPct: 65, lightLux: 900, soilMoisturePct: 35 });
  });

  // A page left open would go on rendering for the rest of the file (tests/browser/harness.ts).
  afterEach(() => closeAll(contexts));

  afterAll(async () => {
    await releaseBrowser(browser);
    await server?.stop();
    await empty?.stop();
  });

  it('shows live values, the live badge and per-sensor details', async () => {
    const page = await sensorsPage(server);
    await page.getByTestId('live-badge').getByText('Live Data').waitFor();
    await page.getByTestId('reading-temperature').getByText('24.5').waitFor();
    await page.getByTestId('reading-humidity').getByText('55.0').waitFor();
    await page.getByTestId('reading-light').getByText('813').waitFor();
    await page.getByTestId('reading-soil').getByText('41.3').waitFor();
    await page.getByTestId('reading-water').getByText('28.0').waitFor();
    // No configured sensor measures CO2, pressure or root temperature: no card for them.
    await page.getByTestId('sensor-instances').locator('[data-testid^="instance-status-"]').first().waitFor();
    expect(await page.locator('.reading-card').count()).toBe(5);
    expect(await page.getByTestId('reading-co2').count()).toBe(0);
    await page.getByTestId('sensor-detail-DHT11').getByText('24.5 °C').waitFor();
    expect(await page.getByTestId('status-DHT11').textContent()).toBe('online');
    await page.getByTestId('sensor-detail-LDR').getByText('Last Reading').waitFor();
    await page.getByTestId('calendar-icon').waitFor();
    await page.getByText('Environmental Trends').waitFor();
  });

  it('draws the chart, and the range and sensor filter change the request and the legend', async () => {
    const page = await sensorsPage(server);
    const legend = page.locator('.u-legend');
    await legend.getByText('Temperature (°C)').waitFor();
    await legend.getByText('Light Intensity (lux)').waitFor();
    await legend.getByText('Soil Moisture (%)').waitFor();
    expect(await page.getByTestId('range-select').inputValue()).toBe('24');

    const filtered = page.waitForRequest((r) => r.url().includes('/api/sensors/historical/') && r.url().includes('sensorType=LDR'));
    await page.getByTestId('sensor-filter').selectOption({ label: 'Light Intensity' });
    expect(new URL((await filtered).url()).searchParams.get('hours')).toBe('24');
    await page.waitForFunction(() => !document.querySelector('.u-legend')?.textContent?.includes('Temperature'));
    await legend.getByText('Light Intensity (lux)').waitFor();

    const week = page.waitForRequest((r) => r.url().includes('/api/sensors/historical/') && r.url().includes('hours=168'));
    await page.getByTestId('range-select').selectOption({ label: 'Last Week' });
    expect(new URL((await week).url()).searchParams.get('sensorType')).toBe('LDR');

    const all = page.waitForRequest((r) => r.url().includes('/api/sensors/historical/') && !r.url().includes('sensorType'));
    await page.getByTestId('sensor-filter').selectOption({ label: 'All Sensors' });
    await all;
    await legend.getByText('Humidity (%)').waitFor();
  });

  it('shows the empty state when there is no data', async () => {
    const page = await sensorsPage(empty);
    await page.getByTestId('chart-empty').getByText('No data available').waitFor();
    await page.getByText('Sensor readings will appear here once data is collected').waitFor();
    await page.getByTestId('reading-temperature').getByText('---').waitFor();
    expect(await page.getByTestId('status-DHT11').textContent()).toBe('offline');
  });

  it('fills the Overview sensor cards and the Environmental Status panel', async () => {
    const page = await sensorsPage(server);
    await page.getByRole('link', { name: 'Overview' }).click();
    const overview = page.getByTestId('sensor-overview');
    await overview.getByTestId('reading-temperature').getByText('24.5').waitFor();
    const status = page.getByTestId('environmental-status');
    await status.getByText('Optimal').first().waitFor();
    await status.getByText('Adequate').waitFor();
    await status.getByText('Low Light').waitFor(); // 813 lux is under the 1000 lux default
  });
});

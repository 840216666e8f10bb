// The Sensors screen's list of sensor instances: several sensors of a kind, each with its kind, status,
// last reading and values with the datasheet's ± accuracy; one silenced shows Fault while its zone goes on.
import { mkdirSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ManualClock } from '../../common/clock.ts';
import { type BrowserGateway, closeAll, launchBrowser, releaseBrowser, newPage, signInViaUi, signUpViaUi, startGatewayForBrowser } from './harness.ts';

const SCREENS = '/work/screens/sensors';
const INTERVAL_S = 5;

const instances = [
  { sensorId: 'air-north', kind: 'SHT4X', name: 'North bench air' },
  { sensorId: 'air-south', kind: 'DHT22', pin: 4, name: 'South bench air' },
  { sensorId: 'co2', kind: 'SCD4X', name: 'CO₂ by the door' },
  { sensorId: 'baro', kind: 'BME280', address: 0x77, name: 'Potting shed' },
  { sensorId: 'roots', kind: 'DS18B20', w1Id: '28-0316a2796aff', name: 'Tomato roots' },
  { sensorId: 'ldr', kind: 'ADS1115_LDR', name: 'Roof light' },
  { sensorId: 'soil', kind: 'ADS1115_SOIL', name: 'Tomato bed' },
  { sensorId: 'tank', kind: 'HCSR04', triggerPin: 23, echoPin: 24, tankDepthCm: 100, name: 'Rain tank' },
];

describe('Sensors screen: sensor instances', () => {
  let server: BrowserGateway;
  let browser: Browser;
  const clock = new ManualClock(Date.now());
  const contexts: BrowserContext[] = [];
  let signedUp = false;

  async function sensorsPage(phone: boolean): Promise<Page> {
    const { context, page } = await newPage(browser, server.url, { phone });
    contexts.push(context);
    // The first page signs up (with the setup code: the admin); the next one signs in.
    const user = { username: 'grower', password: 'tomatoes-2026' };
    if (signedUp) await signInViaUi(page, user);
    else await signUpViaUi(page, user);
    signedUp = true;
    if (phone) await page.goto('/dashboard/sensors');
    else await page.getByRole('link', { name: 'Sensor Monitoring' }).click();
    await page.waitForURL('**/dashboard/sensors');
    return page;
  }

  beforeAll(async () => {
    mkdirSync(SCREENS, { recursive: true });
    [server, browser] = await Promise.all([
      startGatewayForBrowser({ clock, overrides: { sensors: { instances } } as never }),
      launchBrowser(),
    ]);
    // Readings for every instance, then one air sensor silent for more than three intervals.
    await clock.advanceAsync(2 * INTERVAL_S * 1000);
    server.gateway.hardware.simulator!.injectInstanceFault('air-south', { kind: 'silent' });
    await clock.advanceAsync(6 * INTERVAL_S * 1000);
  });

  // A page left open would go on rendering for the rest of the file (tests/browser/harness.ts).
  afterEach(() => closeAll(contexts));

  afterAll(async () => {
    await releaseBrowser(browser);
    const stopping = server?.stop();
    await clock.advanceAsync(30_000);
    await stopping;
  });

  it('lists every instance with kind, status, last reading and values with ± accuracy (desktop)', async () => {
    const page = await sensorsPage(false);
    await page.setViewportSize({ width: 1366, height: 900 });
    const north = page.getByTestId('instance-air-north');
    await north.getByText('North bench air').waitFor();
    await north.getByText(/Sensirion SHT4x/).waitFor();
    await north.getByText('±0.2').waitFor();
    await north.getByText('±1.8').waitFor();
    expect(await page.getByTestId('instance-status-air-north').textContent()).toBe('OK');
    expect(await page.getByTestId('instance-status-air-south').textContent()).toBe('Fault');
    await page.getByTestId('instance-air-south').getByText(/no value/).waitFor();
    await page.getByTestId('instance-co2').getByText(/ppm/).first().waitFor();
    await page.getByTestId('instance-roots').getByText('Root Temperature').waitFor();
    // The air zone goes on with the healthy sensors: its card still draws a value.
    expect(await page.getByTestId('status-DHT11').textContent()).toBe('online');
    await page.getByTestId('sensor-instances').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SCREENS}/sensors-instances-1366.png`, fullPage: true });
  });

  it('fits a phone: no sideways scrolling, every instance readable', async () => {
    const page = await sensorsPage(true);
    await page.getByTestId('instance-tank').getByText('Rain tank').waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${SCREENS}/sensors-instances-390.png`, fullPage: true });
  });
});

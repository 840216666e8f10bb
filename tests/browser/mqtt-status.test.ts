// Settings > System tells where the MQTT bridge stands, against a real Mosquitto that goes away; a device
// switched over MQTT shows on the Devices screen.
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Browser, BrowserContext } from 'playwright-core';
import { registerUser, httpClient } from '../support/http.ts';
import { GATEWAY_CREDENTIALS, startMosquitto, Subscriber, type Broker } from '../support/mosquitto.ts';
import { launchBrowser, releaseBrowser, newPage, signInViaUi, startGatewayForBrowser, type BrowserGateway, type Credentials } from './harness.ts';

const viewer: Credentials = { username: 'grower', password: 'tomatoes-2026' };

describe('Settings > System: the MQTT bridge line', () => {
  let broker: Broker;
  let server: BrowserGateway;
  let browser: Browser;
  let context: BrowserContext | null = null;

  beforeAll(async () => {
    broker = await startMosquitto();
    [server, browser] = await Promise.all([startGatewayForBrowser({ overrides: { mqtt: { url: broker.url, ...GATEWAY_CREDENTIALS } as never } }), launchBrowser()]);
    await registerUser(httpClient(server.url), { username: viewer.username, password: viewer.password });
  });
  afterAll(async () => {
    await context?.close().catch(() => {});
    await releaseBrowser(browser);
    await server?.stop();
    await broker?.dispose();
  });

  it('shows the broker it is connected to, an MQTT command on the Devices screen, then that the broker is away and the greenhouse goes on', { timeout: 90_000 }, async () => {
    const opened = await newPage(browser, server.url);
    context = opened.context;
    const { page } = opened;
    await signInViaUi(page, viewer);
    await page.goto('/dashboard/settings');
    await page.getByRole('tab', { name: 'System' }).click();
    const line = page.getByTestId('mqtt-status');
    await line.filter({ hasText: `MQTT bridge: connected to ${broker.url} as greenhouse/greenhouse-001, Home Assistant discovery on` }).waitFor();

    // A command from Home Assistant shows on the Devices screen as one from the dashboard would.
    await page.goto('/dashboard/devices');
    const fanStatus = page.getByTestId('device-fan-1').getByTestId('device-status');
    await fanStatus.getByText('OFF', { exact: true }).waitFor();
    const homeAssistant = await Subscriber.connect(broker.url, []);
    await homeAssistant.publish('greenhouse/greenhouse-001/devices/fan-1/set', 'ON');
    await homeAssistant.close();
    await fanStatus.getByText('ON', { exact: true }).waitFor();

    await page.goto('/dashboard/settings');
    await page.getByRole('tab', { name: 'System' }).click();
    await broker.kill();
    // The line polls every 10 s.
    await line.filter({ hasText: `MQTT bridge: cannot reach ${broker.url}` }).waitFor({ timeout: 30_000 });
    await line.filter({ hasText: 'sampling and control go on' }).waitFor();
  });
});

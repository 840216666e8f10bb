// In the dashboard: the Simulator tab (admins, simulator mode) injects a fault and drains the
// tank beside the model's true values; the Device Safety tab sets the heater cut-off; the Automation
// Settings dialog states each rule, sets a schedule and the sensor-loss action, and previews the rules;
// Overview and Sensors show VPD with its DHT11 uncertainty and the estimated light integral.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { httpClient, registerUser } from '../support/http.ts';
import { type Credentials, signInViaUi, toasts, useBrowserSession } from './harness.ts';

const admin: Credentials = { username: 'grower', password: 'tomatoes-2026' };
const viewer: Credentials = { username: 'visitor', password: 'just-looking-1', role: 'viewer' };

describe('automation, safety and the simulator panel', () => {
  const session = useBrowserSession();
  let adminToken: string;
  const http = () => httpClient(session.server.url);

  async function open(user: Credentials, path: string): Promise<Page> {
    const page = await session.newPage();
    await signInViaUi(page, user);
    await page.goto(path);
    return page;
  }

  beforeAll(async () => {
    adminToken = await registerUser(http(), { username: admin.username, password: admin.password });
    await registerUser(http(), { username: viewer.username, password: viewer.password, role: 'viewer' }, adminToken);
  });

  it('Simulator tab: true values beside the sensors, a silent DHT11 and a drained tank', async () => {
    const page = await open(admin, '/dashboard/settings');
    await page.getByRole('tab', { name: 'Simulator' }).click();
    const panel = page.getByTestId('simulator-panel');
    await panel.getByRole('cell', { name: 'Temperature (°C)' }).waitFor();
    const truth = (await http().get('/api/simulator', adminToken)).body.data;
    await panel.getByRole('cell', { name: truth.inside.temperatureC.toFixed(1) }).first().waitFor();

    await panel.getByLabel('Temperature & Humidity (DHT11) fault').selectOption('silent');
    await toasts(page).filter({ hasText: 'DHT11: Silent' }).waitFor();
    expect((await http().get('/api/simulator', adminToken)).body.data.faults).toContainEqual({ sensor: 'DHT11', fault: 'silent' });
    await panel.getByLabel('Temperature & Humidity (DHT11) fault').selectOption('none');
    await toasts(page).filter({ hasText: 'DHT11: Working' }).waitFor();

    await panel.getByLabel(/Tank level/).fill('7');
    await panel.getByRole('button', { name: 'Set Level' }).click();
    await toasts(page).filter({ hasText: 'Tank set to 7 cm' }).waitFor();
    const after = (await http().get('/api/simulator', adminToken)).body.data;
    expect(after.tank.levelCm).toBeLessThanOrEqual(7);
    expect(after.faults).toContainEqual({ sensor: 'DHT11', fault: 'none' });
  });

  it('a viewer gets no Simulator tab and cannot change the heater cut-off', async () => {
    const page = await open(viewer, '/dashboard/settings');
    await page.getByRole('tab', { name: 'Device Safety' }).click();
    expect(await page.getByLabel('Heater Cut-off (°C)').isDisabled()).toBe(true);
    expect(await page.getByRole('tab', { name: 'Simulator' }).count()).toBe(0);
  });

  it('Device Safety tab: the heater cut-off is shown and saved', async () => {
    const page = await open(admin, '/dashboard/settings');
    await page.getByRole('tab', { name: 'Device Safety' }).click();
    const field = page.getByLabel('Heater Cut-off (°C)');
    expect(await field.inputValue()).toBe('35');
    await field.fill('38');
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await toasts(page).filter({ hasText: 'Device safety settings updated successfully' }).waitFor();
    expect((await http().get('/api/settings/greenhouse-001', adminToken)).body.data.deviceSettings.heaterCutoffC).toBe(38);
  });

  it('Automation Settings: rules stated plainly, a schedule, the sensor-loss action and a preview', async () => {
    const page = await open(admin, '/dashboard/devices');
    await page.getByTestId('device-heater-1').getByRole('button', { name: 'Automation Settings' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Auto Mode').check();
    await dialog.getByLabel('Temperature Low (°C)').fill('30');
    await dialog.getByTestId('rule-statements').getByText('Heat below 30 °C, stop at 30.5 °C (the 0.5 °C deadband)').waitFor();
    await dialog.getByLabel('Only within a schedule').check();
    await dialog.getByLabel('Start time').fill('22:00');
    await dialog.getByLabel('End time').fill('06:00');
    await dialog.getByText('Schedule: rules act only today 22:00-06:00 (ends the next morning); off outside it').waitFor();
    await dialog.getByLabel('If a sensor is lost').selectOption('hold');

    // While the gateway replays the rules (held here until the button has said so), the button says it is at work.
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/automation/preview', async (route) => {
      await released;
      await route.continue();
    });
    await dialog.getByRole('button', { name: 'Preview' }).click();
    await dialog.getByRole('button', { name: 'Previewing…' }).and(page.locator('[disabled]')).waitFor();
    release();
    // The preview's worker runs at nice 19: on a machine the suite keeps busy it waits for the rest.
    await dialog.getByTestId('preview-summary').getByText(/\d+ switch(es)? · \d+\.\d h on · \d+ Wh/).waitFor({ timeout: 30_000 });
    await dialog.getByTestId('preview-strip').waitFor();
    await dialog.getByRole('button', { name: 'Preview', exact: true }).and(page.locator(':enabled')).waitFor();

    // A window of 30 hours is caught before anything is sent.
    await dialog.getByLabel('Ends').selectOption('duration');
    await dialog.getByLabel('Hours on').fill('30');
    await dialog.getByRole('button', { name: 'Save Settings' }).click();
    await dialog.getByText('Duration must be more than 0 and less than 24 hours').waitFor();
    await dialog.getByLabel('Ends').selectOption('clock');

    await dialog.getByRole('button', { name: 'Save Settings' }).click();
    await toasts(page).filter({ hasText: 'Automation settings updated successfully' }).waitFor();
    const heater = (await http().get('/api/devices/greenhouse-001', adminToken)).body.data.find((d: any) => d.deviceId === 'heater-1');
    expect(heater).toMatchObject({ autoMode: true, sensorLossAction: 'hold', automationRules: { temperatureLow: 30, schedule: { from: '22:00', to: '06:00' } } });
  });

  it('Overview and Sensors show VPD with its uncertainty, the dew point and the estimated light integral', async () => {
    // Give the sampler a reading to show (it samples every 5 s in real time).
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline) {
      const latest = (await http().get('/api/sensors/latest/greenhouse-001', adminToken)).body.data;
      if (latest.some((r: any) => r.sensorType === 'DHT11' && typeof r.vpdKpa === 'number')) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const dht = (await http().get('/api/sensors/latest/greenhouse-001', adminToken)).body.data.find((r: any) => r.sensorType === 'DHT11');
    const page = await open(admin, '/dashboard');
    const card = page.getByTestId('climate-metrics');
    await card.getByTestId('metric-vpd').getByText(/^±0\.\d\d kPa from the air sensors' datasheet accuracy$/).waitFor();
    await card.getByTestId('metric-vpd').locator('.stat-value').filter({ hasText: /^\d+\.\d\d$/ }).waitFor();
    await card.getByTestId('metric-dew-point').locator('.stat-value').filter({ hasText: /^-?\d+\.\d$/ }).waitFor();
    expect(typeof dht.vpdKpa).toBe('number');
    await card.getByText('Light Today (mol/m², estimated)').waitFor();

    await page.getByRole('link', { name: 'Sensor Monitoring' }).click();
    await page.getByTestId('climate-metrics').getByText(/estimated from the light sensor/).waitFor();
  });
});

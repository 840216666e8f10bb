// Device Control as a user works it: add a device, switch it, set an automation rule, quick actions,
// and a second dashboard (a viewer) that follows along without controls.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { httpClient, registerUser } from '../support/http.ts';
import { signInViaUi, signUpViaUi, answerConfirm, toasts, useBrowserSession } from './harness.ts';

const grower = { username: 'grower', password: 'tomatoes-2026' };
const watcher = { username: 'watcher', password: 'peppers-2026', role: 'viewer' as const };

describe('Device Control screen', () => {
  const session = useBrowserSession();

  async function page(user: typeof grower): Promise<Page> {
    const page = await session.newPage();
    await signInViaUi(page, user);
    await page.getByRole('link', { name: 'Device Control' }).click();
    await page.waitForURL('**/dashboard/devices');
    return page;
  }
  const card = (p: Page, deviceId: string) => p.getByTestId(`device-${deviceId}`);
  const stat = async (p: Page, testId: string) => p.getByTestId(testId).locator('.stat-value').textContent();

  beforeAll(async () => {
    // The grower signs up first (the setup code makes it the admin); the watcher is an account the
    // admin creates, as a self-registered one would wait for approval.
    const page = await session.newPage();
    await signUpViaUi(page, grower);
    await page.context().close();
    const http = httpClient(session.server.url);
    const adminToken = (await http.post('/api/auth/login', grower)).body.token as string;
    await registerUser(http, watcher, adminToken);
  });

  it('shows the configured devices grouped by type with the summary cards', async () => {
    const p = await page(grower);
    for (const heading of ['Ventilation Fans', 'Water Pumps', 'LED Lights', 'Heaters', 'Cooling Systems', 'Roof Windows']) {
      await p.getByRole('heading', { name: heading }).waitFor();
    }
    await p.getByText('Connected', { exact: true }).first().waitFor();
    expect(await stat(p, 'devices-total-devices')).toBe('6');
    expect(await stat(p, 'devices-active-devices')).toBe('0');
    await card(p, 'window-1').getByRole('button', { name: 'Open' }).waitFor();
    await card(p, 'pump-1').getByRole('button', { name: 'Automation Settings' }).waitFor();
  });

  it('on a phone, each summary card keeps its icon beside its label and value', async () => {
    const p = await session.newPage({ phone: true });
    await signInViaUi(p, grower);
    await p.goto('/dashboard/devices');
    await p.getByRole('heading', { name: 'Roof Windows' }).waitFor();
    const cards = p.locator('.stat-card:has(.stat-icon)');
    expect(await cards.count()).toBe(4);
    const layouts = await cards.evaluateAll((all) =>
      all.map((card) => {
        const text = card.querySelector(':scope > div')!.getBoundingClientRect();
        const icon = card.querySelector('.stat-icon')!.getBoundingClientRect();
        const beside = icon.left >= text.right - 1 && icon.top < text.bottom && icon.bottom > text.top;
        return `${card.querySelector('.stat-label')!.textContent}: ${beside ? 'icon beside' : 'icon below'}`;
      }),
    );
    expect(layouts).toEqual(['Total Devices', 'Active Devices', 'Auto Mode', 'Power Usage (W)'].map((label) => `${label}: icon beside`));
  });

  it('adds a device (validation, Generate ID), switches it, sets a rule, and runs the quick actions', async () => {
    const p = await page(grower);
    const viewer = await page(watcher);

    await p.getByRole('button', { name: 'Add Device' }).first().click();
    const dialog = p.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Add Device' }).click();
    await dialog.getByText('Device name is required').waitFor();
    await dialog.getByText('Device type is required').waitFor();
    // A name another device has (as a grower reads it) is refused before sending, as the gateway would.
    await dialog.getByLabel('Device Name').fill(' ventilation  FAN ');
    await dialog.getByRole('button', { name: 'Add Device' }).click();
    await dialog.getByText('Ventilation Fan already has this name: choose another').waitFor();
    await dialog.getByLabel('Device Name').fill('Side Fan');
    await dialog.getByLabel('Device Type').selectOption('FAN');
    await dialog.getByRole('button', { name: 'Generate ID' }).click();
    const deviceId = await dialog.getByLabel('Device ID').inputValue();
    expect(deviceId).toMatch(/^fan_\d{6}$/);
    expect(await dialog.getByLabel('Location').inputValue()).toBe('Main Greenhouse');
    await dialog.getByLabel('Power Consumption (W)').fill('-3');
    await dialog.getByRole('button', { name: 'Add Device' }).click();
    await dialog.getByText('Power consumption must be a number of 0 or more').waitFor();
    await dialog.getByLabel('Power Consumption (W)').fill('25');
    await dialog.getByRole('button', { name: 'Add Device' }).click();
    await toasts(p).filter({ hasText: 'Device added successfully' }).waitFor();
    expect(await p.getByRole('dialog').count()).toBe(0);
    await card(p, deviceId).getByText('Not connected to hardware').waitFor();
    // The viewer's dashboard hears about it, and shows no controls.
    await toasts(viewer).filter({ hasText: 'New device added: Side Fan' }).waitFor();
    await card(viewer, deviceId).waitFor();
    expect(await viewer.getByRole('button', { name: 'Add Device' }).count()).toBe(0);
    // Only the control log, which changes nothing.
    expect((await card(viewer, deviceId).getByRole('button').allTextContents()).map((t) => t.trim())).toEqual(['Log']);

    // Switch it on: the status, the summary and the other dashboard follow.
    await card(p, deviceId).getByRole('button', { name: 'Turn On' }).click();
    await card(p, deviceId).getByTestId('device-status').getByText('ON', { exact: true }).waitFor();
    await card(viewer, deviceId).getByTestId('device-status').getByText('ON', { exact: true }).waitFor();
    await p.getByTestId('devices-power-usage-w-').getByText('25', { exact: true }).waitFor();

    // Optimize Power switches off the manual device no rule needs.
    await p.getByRole('button', { name: 'Optimize Power' }).click();
    await toasts(p).filter({ hasText: '25 W saved' }).waitFor();
    await card(p, deviceId).getByTestId('device-status').getByText('OFF', { exact: true }).waitFor();

    // Automation: rule fields appear only with auto mode, by type (a fan: temperature high, humidity high).
    await card(p, deviceId).getByRole('button', { name: 'Automation Settings' }).click();
    const automation = p.getByRole('dialog');
    expect(await automation.getByLabel('Temperature High (°C)').count()).toBe(0);
    await automation.getByLabel('Auto Mode').check();
    await automation.getByLabel('Temperature High (°C)').fill('30.5');
    await automation.getByLabel('Humidity High (%)').waitFor();
    expect(await automation.getByLabel('Soil Moisture Low (%)').count()).toBe(0);
    await automation.getByRole('button', { name: 'Save Settings' }).click();
    await toasts(p).filter({ hasText: 'Automation settings updated successfully' }).waitFor();
    await card(p, deviceId).getByText('AUTO', { exact: true }).waitFor();
    const saved = await httpClient(session.server.url).get('/api/devices/greenhouse-001', await token(p));
    expect(saved.body.data.find((d: any) => d.deviceId === deviceId).automationRules).toMatchObject({ temperatureHigh: 30.5, humidityHigh: null });

    // Enable Auto Mode and Turn Off All (after confirming).
    await p.getByRole('button', { name: 'Enable Auto Mode' }).click();
    await toasts(p).filter({ hasText: 'Auto mode enabled' }).waitFor();
    await card(p, deviceId).getByRole('button', { name: 'Turn On' }).click();
    await card(p, deviceId).getByTestId('device-status').getByText('ON', { exact: true }).waitFor();
    await p.getByRole('button', { name: 'Turn Off All Devices' }).click();
    await answerConfirm(p, 'confirm');
    await toasts(p).filter({ hasText: 'turned off' }).waitFor();
    await card(p, deviceId).getByTestId('device-status').getByText('OFF', { exact: true }).waitFor();
    expect(await stat(p, 'devices-active-devices')).toBe('0');
  });

  it('a switch-on the gateway forbids (maintenance mode) is disabled before anyone taps, with its sentence on the card', async () => {
    const p = await page(grower);
    session.server.gateway.settings.updateSystem({ maintenanceMode: true });
    try {
      await card(p, 'fan-1').getByTestId('device-locks').getByText(/Maintenance mode/).waitFor({ timeout: 20_000 });
      expect(await card(p, 'fan-1').getByRole('button', { name: 'Turn On' }).isDisabled()).toBe(true);
      await card(p, 'fan-1').getByTestId('device-status').getByText('OFF', { exact: true }).waitFor();
    } finally {
      session.server.gateway.settings.updateSystem({ maintenanceMode: false });
    }
  });

  it('switches a configured output of the simulated greenhouse', async () => {
    const p = await page(grower);
    await card(p, 'window-1').getByRole('button', { name: 'Open' }).click();
    await card(p, 'window-1').getByTestId('device-status').getByText('OPEN', { exact: true }).waitFor();
    await card(p, 'window-1').getByRole('button', { name: 'Close' }).click();
    await card(p, 'window-1').getByTestId('device-status').getByText('CLOSED', { exact: true }).waitFor();
  });
});

async function token(p: Page): Promise<string> {
  return (await p.evaluate(() => localStorage.getItem('token'))) ?? '';
}

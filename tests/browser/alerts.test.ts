// Alerts in the dashboard: realtime toasts, the Overview widget, the header bell, and the Alert System
// screen (stats, filters, resolve, delete, CSV export, read-only configuration, viewers).
import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { SensorField } from '../../server/contract/reading.ts';
import { snapshotOf } from '../support/snapshots.ts';
import { httpClient, registerUser, type HttpClient } from '../support/http.ts';
import { signInViaUi, signUpViaUi, answerConfirm, toasts, useBrowserSession } from './harness.ts';

const grower = { username: 'grower', password: 'tomatoes-2026' };
const watcher = { username: 'watcher', password: 'lettuce-2026-x' };
const G = 'greenhouse-001';

describe('alerts', () => {
  const session = useBrowserSession();
  let http: HttpClient;
  let token: string;

  async function signedInPage(user = grower): Promise<Page> {
    const page = await session.newPage();
    await signInViaUi(page, user);
    await page.getByTestId('connection-status').getByText('Connected', { exact: true }).waitFor();
    return page;
  }

  /** A sampling tick as the sensors feature publishes it. */
  function sample(values: Partial<Record<SensorField, number>>) {
    session.server.gateway.bus.emit('sampleTaken', { greenhouseId: G, readings: [], snapshot: snapshotOf(values, Date.now()) });
  }

  const createAlert = async (alertType: string, severity: string, message: string, deviceId?: string) => {
    const result = await http.post(`/api/alerts/${G}`, { alertType, severity, message, deviceId }, token);
    expect(result.status).toBe(201);
    return result.body.data as { _id: string };
  };
  const clearActive = async () => {
    for (const a of (await http.get(`/api/alerts/active/${G}`, token)).body.data) await http.del(`/api/alerts/${a._id}`, token);
  };
  const bellCount = (page: Page) => page.getByTestId('alert-bell').locator('.bell-count');

  beforeAll(async () => {
    const page = await session.newPage();
    await signUpViaUi(page, grower);
    await page.context().close();
    http = httpClient(session.server.url);
    token = (await http.post('/api/auth/login', grower)).body.token;
    await registerUser(http, { ...watcher, role: 'viewer' }, token);
  });

  it('a threshold alert appears as a toast, in the widget and on the bell; resolve clears it', async () => {
    const page = await signedInPage();
    const widget = page.getByTestId('active-alerts');
    await widget.getByText('All Clear!').waitFor();
    await widget.getByText('No active alerts in your greenhouse').waitFor();

    // The fake tick alone decides: the real sampler's next tick would clear the alert within a second,
    // and the heater cut-off (35 °C) would add a second alert at 44 °C.
    session.server.gateway.sampler.stop();
    session.server.gateway.settings.updateDevices({ heaterCutoffC: 60 });
    sample({ temperature: 44 }); // default high threshold 35 °C: 9 °C past is CRITICAL
    await toasts(page).filter({ hasText: 'TEMPERATURE HIGH' }).waitFor();
    expect(await toasts(page).filter({ hasText: 'TEMPERATURE HIGH' }).getAttribute('class')).toContain('toast-error');
    await widget.getByText('1 alert(s) require attention').waitFor();
    const item = widget.getByTestId('active-alert');
    await item.getByText('TEMPERATURE HIGH').waitFor();
    await item.getByText('Temperature 44 °C is above the high threshold of 35 °C').waitFor();
    expect(await item.getByTestId('severity-badge').textContent()).toBe('CRITICAL');
    expect(await item.getByTestId('severity-badge').getAttribute('class')).toContain('badge-critical');
    await expectText(bellCount(page), '1');

    await item.getByRole('button', { name: /Resolve/ }).click();
    await toasts(page).filter({ hasText: 'Alert resolved successfully' }).waitFor();
    await widget.getByText('All Clear!').waitFor();
    await bellCount(page).waitFor({ state: 'detached' });
    const resolved = (await http.get(`/api/alerts/${G}?status=resolved`, token)).body.data[0];
    expect(resolved.actionTaken).toBe('Manually resolved by user');
  });

  it('alerts raised and resolved elsewhere toast and update the widget and bell', async () => {
    const page = await signedInPage();
    const widget = page.getByTestId('active-alerts');
    await widget.getByText('All Clear!').waitFor();
    const high = await createAlert('DOOR_OPEN', 'HIGH', 'North door left open', 'door-1');
    await toasts(page).filter({ hasText: 'DOOR OPEN' }).waitFor();
    await widget.getByText('door-1', { exact: true }).waitFor();
    await expectText(bellCount(page), '1');
    await createAlert('FILTER_DIRTY', 'MEDIUM', 'Fan filter needs cleaning');
    const medium = toasts(page).filter({ hasText: 'FILTER DIRTY' });
    await medium.waitFor();
    expect(await medium.getAttribute('class')).toContain('toast-warning');
    await widget.getByText('2 alert(s) require attention').waitFor();
    await expectText(bellCount(page), '1'); // MEDIUM does not ring the bell

    await http.put(`/api/alerts/${high._id}/resolve`, {}, token);
    await toasts(page).filter({ hasText: 'Alert resolved: DOOR OPEN' }).waitFor();
    await bellCount(page).waitFor({ state: 'detached' });
    await widget.getByText('1 alert(s) require attention').waitFor();
    await clearActive();
  });

  it('the Overview lists at most 4 alerts with an overflow line', async () => {
    for (let i = 1; i <= 6; i++) await createAlert(`CHECK_${i}`, 'LOW', `check ${i}`);
    const page = await signedInPage();
    const widget = page.getByTestId('active-alerts');
    await widget.getByText('6 alert(s) require attention').waitFor();
    expect(await widget.getByTestId('active-alert').count()).toBe(4);
    await widget.getByText('+2 more alerts').waitFor();
    await clearActive();
  });

  it('the Alert System screen: stats, filters, delete, export of the rows shown, configuration', async () => {
    await createAlert('PUMP_NOISE', 'LOW', 'Pump is noisy', 'pump-1');
    const critical = await createAlert('TANK_LEAK', 'CRITICAL', 'Tank is leaking');
    await createAlert('VENT_STUCK', 'HIGH', 'Vent does not open', 'vent-1');
    await http.put(`/api/alerts/${critical._id}/resolve`, { actionTaken: 'Patched the tank' }, token);
    const stats = (await http.get(`/api/alerts/stats/${G}`, token)).body.stats.overall;

    const page = await signedInPage();
    await page.goto('/dashboard/alerts');
    await page.getByRole('heading', { name: 'Alert System' }).waitFor();
    await expectText(page.getByTestId('alert-stat-total').locator('.stat-value'), String(stats.totalAlerts));
    await expectText(page.getByTestId('alert-stat-active').locator('.stat-value'), String(stats.totalActive));
    await expectText(page.getByTestId('alert-stat-resolved').locator('.stat-value'), String(stats.totalResolved));
    await expectText(page.getByTestId('alert-stat-resolution-rate').locator('.stat-value'), `${Math.round((stats.totalResolved / stats.totalAlerts) * 100)}%`);
    await page.getByRole('heading', { name: 'Current Active Alerts' }).waitFor();

    const history = page.getByTestId('alert-history');
    const rows = history.getByTestId('history-alert');
    await history.getByText('Pump is noisy').waitFor();
    expect(await rows.count()).toBe(stats.totalAlerts);
    const scroll = await history.locator('.alert-history-scroll').evaluate((el) => getComputedStyle(el).maxHeight);
    expect(scroll).toBe('384px');

    // Resolved badge and action taken on the resolved one; no delete button there.
    const leak = rows.filter({ hasText: 'Tank is leaking' });
    await leak.getByText('Resolved', { exact: true }).waitFor();
    await leak.getByText('Patched the tank').waitFor();
    await leak.getByText('Action Taken:').waitFor();
    expect(await leak.getByRole('button', { name: /Delete/ }).count()).toBe(0);

    // A new filter first shows 'Loading alerts...', then its rows: wait for a row only it contains.
    await page.getByLabel('Status filter').selectOption({ label: 'Resolved Only' });
    await history.getByText('Pump is noisy').waitFor({ state: 'detached' });
    await history.getByText('Tank is leaking').waitFor();
    expect(await rows.count()).toBe(stats.totalResolved);
    await page.getByLabel('Status filter').selectOption({ label: 'All' });
    await history.getByText('Pump is noisy').waitFor();
    await page.getByLabel('Severity filter').selectOption({ label: 'Critical' });
    await history.getByText('Pump is noisy').waitFor({ state: 'detached' });
    await history.getByText('Tank is leaking').waitFor();
    const criticalTexts = await rows.getByTestId('severity-badge').allTextContents();
    expect(criticalTexts.length).toBeGreaterThan(0);
    expect(new Set(criticalTexts)).toEqual(new Set(['CRITICAL']));
    await page.getByLabel('Severity filter').selectOption({ label: 'High' });
    await history.getByText('Tank is leaking').waitFor({ state: 'detached' });
    await history.getByText('Vent does not open').waitFor();

    // Export downloads the filtered history: the same rows as shown.
    const shown = await rows.locator('.alert-message').allTextContents();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export Alerts' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^alerts-greenhouse-001-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = (await readFile((await download.path())!, 'utf8')).replace(/^\uFEFF/, '');
    const lines = csv.trimEnd().split('\r\n');
    expect(lines[0]).toBe('createdAt,alertType,severity,message,deviceId,status,resolvedAt,actionTaken');
    expect(lines.slice(1).map((l) => l.split(',')[3])).toEqual(shown);
    expect(lines.slice(1).every((l) => l.split(',')[2] === 'HIGH')).toBe(true);

    // Delete an unresolved alert after confirming.
    await page.getByLabel('Severity filter').selectOption({ label: 'All' });
    await history.getByText('Pump is noisy').waitFor();
    await rows.filter({ hasText: 'Pump is noisy' }).getByRole('button', { name: /Delete/ }).click();
    expect(await answerConfirm(page, 'confirm')).toBe('Are you sure you want to delete this alert?');
    await toasts(page).filter({ hasText: 'Alert deleted successfully' }).waitFor();
    await history.getByText('Pump is noisy').waitFor({ state: 'detached' });
    await expectText(page.getByTestId('alert-stat-total').locator('.stat-value'), String(stats.totalAlerts - 1));

    // Read-only thresholds: defaults, light unset.
    const config = page.getByTestId('alert-configuration');
    await config.getByText('Alert Configuration').waitFor();
    await config.getByText('35 °C').waitFor();
    await config.getByText('Not set').waitFor();
    await config.getByRole('link', { name: 'Settings' }).waitFor();
  });

  it('no new-alert toasts for a user who turned in-app notifications off', async () => {
    const quiet = { username: 'quiet', password: 'radishes-2026' };
    const quietToken = await registerUser(http, { ...quiet, role: 'operator' }, token);
    await http.put('/api/auth/profile', { preferences: { alertNotifications: false } }, quietToken);
    const page = await signedInPage(quiet);
    const widget = page.getByTestId('active-alerts');
    await createAlert('SILENT_CHECK', 'CRITICAL', 'Nobody is toasted');
    // The widget refetches after the realtime event; a toast would have been shown before that.
    await widget.getByText('Nobody is toasted').waitFor();
    expect(await toasts(page).filter({ hasText: 'SILENT CHECK' }).count()).toBe(0);
    await clearActive();
  });

  it('viewers see alerts but no resolve or delete buttons', async () => {
    await createAlert('VIEW_ONLY', 'HIGH', 'Only to look at');
    const page = await signedInPage(watcher);
    const widget = page.getByTestId('active-alerts');
    await widget.getByText('Only to look at').waitFor();
    expect(await widget.getByRole('button', { name: /Resolve/ }).count()).toBe(0);
    await page.goto('/dashboard/alerts');
    await page.getByTestId('alert-history').getByText('Only to look at').waitFor();
    expect(await page.getByRole('button', { name: /Delete|Resolve/ }).count()).toBe(0);
  });
});

async function expectText(locator: import('playwright-core').Locator, text: string): Promise<void> {
  await locator.filter({ hasText: new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) }).waitFor();
}

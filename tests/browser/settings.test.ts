// The Settings screen, tab by tab, as a user does it, against the real gateway.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { httpClient, registerUser } from '../support/http.ts';
import { type Credentials, signInViaUi, answerConfirm, toasts, useBrowserSession } from './harness.ts';

const admin: Credentials = { username: 'grower', password: 'tomatoes-2026' };
const viewer: Credentials = { username: 'visitor', password: 'just-looking-1', role: 'viewer' };

describe('settings screen', () => {
  const session = useBrowserSession();
  const http = () => httpClient(session.server.url);

  async function openSettings(user: Credentials, tab?: string): Promise<Page> {
    const page = await session.newPage();
    await signInViaUi(page, user);
    await page.goto('/dashboard/settings');
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    if (tab) await page.getByRole('tab', { name: tab }).click();
    return page;
  }

  const apiSettings = async () => {
    const login = await http().post('/api/auth/login', { username: admin.username, password: admin.password });
    return (await http().get('/api/settings/greenhouse-001', login.body.data.token)).body.data;
  };

  beforeAll(async () => {
    const token = await registerUser(http(), { username: admin.username, password: admin.password });
    await registerUser(http(), { username: viewer.username, password: viewer.password, role: 'viewer' }, token);
  });

  it('Profile: read-only username and role, last login, email saved', async () => {
    const page = await openSettings(admin);
    await page.getByText('System Connected').waitFor();
    await page.getByText('Username cannot be changed').waitFor();
    expect(await page.getByLabel('Username').inputValue()).toBe(admin.username);
    expect(await page.getByLabel('Role').inputValue()).toBe('admin');
    expect(await page.getByLabel('Last Login').inputValue()).not.toBe('Never');
    await page.getByLabel('Email').fill('grower@greenhouse.test');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await toasts(page).filter({ hasText: 'Profile updated successfully' }).waitFor();
    const login = await http().post('/api/auth/login', { username: admin.username, password: admin.password });
    expect(login.body.data.user.email).toBe('grower@greenhouse.test');
  });

  it('Notifications: the dark theme applies at once and is kept after saving', async () => {
    const page = await openSettings(admin, 'Notifications');
    await page.getByLabel('In-app notifications').waitFor();
    // The session.browser gateway has no SMTP configured: the tab says email cannot be sent.
    await page.getByTestId('email-not-configured').getByText('Email is not configured', { exact: false }).waitFor();
    await page.getByLabel('Email notifications (critical alerts)').check();
    await page.getByLabel('Dark').check();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await page.getByRole('button', { name: 'Save Preferences' }).click();
    await toasts(page).filter({ hasText: 'Profile updated successfully' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    const login = await http().post('/api/auth/login', { username: admin.username, password: admin.password });
    expect(login.body.data.user.preferences).toMatchObject({ theme: 'dark', emailNotifications: true });
    // Back to light for the other tests' screenshots of the world.
    await page.getByRole('tab', { name: 'Notifications' }).click();
    await page.getByLabel('Light').check();
    await page.getByRole('button', { name: 'Save Preferences' }).click();
    await toasts(page).filter({ hasText: 'Profile updated successfully' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
  });

  it('Alert Thresholds: save, reload shows them, empty is unset; Reset All after confirming', async () => {
    const page = await openSettings(admin, 'Alert Thresholds');
    await page.getByLabel('Temperature High (°C)').fill('31.5');
    await page.getByLabel('Humidity Low (%)').fill('42');
    await page.getByLabel('Water Level Low (cm)').fill('');
    await page.getByLabel('Light Level Low (lux)').fill('150');
    // No configured sensor measures CO2 and none is stored: a grower is not asked for it.
    expect(await page.getByLabel('CO₂ High (ppm)').count()).toBe(0);
    await page.getByRole('button', { name: 'Save Thresholds' }).click();
    await toasts(page).filter({ hasText: 'Alert thresholds updated successfully' }).waitFor();
    const saved = (await apiSettings()).alertThresholds;
    expect(saved).toMatchObject({ temperature: { high: 31.5 }, humidity: { low: 42 }, waterLevel: { low: null }, lightLevel: { low: 150 } });

    await page.reload();
    await page.getByRole('tab', { name: 'Alert Thresholds' }).click();
    expect(await page.getByLabel('Temperature High (°C)').inputValue()).toBe('31.5');
    expect(await page.getByLabel('Water Level Low (cm)').inputValue()).toBe('');
    await page.getByLabel('Temperature High (°C)').fill('99');
    await page.getByRole('button', { name: 'Reload' }).click();
    await page.waitForFunction(() => (document.querySelector('input[name="temperature.high"]') as HTMLInputElement).value === '31.5');

    // A refused value names the field and changes nothing.
    await page.getByLabel('Humidity Low (%)').fill('95');
    await page.getByRole('button', { name: 'Save Thresholds' }).click();
    await toasts(page).filter({ hasText: 'alertThresholds.humidity.low' }).waitFor();
    expect((await apiSettings()).alertThresholds.humidity.low).toBe(42);

    await page.getByRole('button', { name: 'Reset All' }).click();
    expect(await answerConfirm(page, 'confirm')).toBe('Are you sure you want to reset all settings to defaults? This action cannot be undone.');
    await toasts(page).filter({ hasText: 'Settings reset to defaults' }).waitFor();
    expect(await page.getByLabel('Temperature High (°C)').inputValue()).toBe('35');
    expect((await apiSettings()).alertThresholds.temperature.high).toBe(35);
  });

  it('System: saves retention, interval, escalation, backup and maintenance mode', async () => {
    const page = await openSettings(admin, 'System');
    await page.getByText('Disable device control for maintenance').waitFor();
    await page.getByLabel('Data Retention (days)').fill('14');
    await page.getByLabel('Update Interval (seconds)').fill('10');
    await page.getByLabel('Resend unacknowledged CRITICAL after (minutes)').fill('30');
    await page.getByLabel('Automatic backup').uncheck();
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await toasts(page).filter({ hasText: 'System settings updated successfully' }).waitFor();
    expect((await apiSettings()).systemSettings).toEqual({ dataRetentionDays: 14, updateInterval: 10, escalateAfterMinutes: 30, autoBackup: false, maintenanceMode: false, site: null });
    await page.getByLabel('Update Interval (seconds)').fill('0');
    await page.getByRole('button', { name: 'Save Settings' }).click();
    // The session.browser's own min=1 check stops the form; nothing reaches the session.server.
    expect((await apiSettings()).systemSettings.updateInterval).toBe(10);
  });

  it('Security: mismatch is caught, the new password works, the session continues; Extend Session', async () => {
    const page = await openSettings(admin, 'Security');
    await page.getByText('Your session expires in 24 hours', { exact: false }).waitFor();
    const oldToken = await page.evaluate(() => localStorage.getItem('token'));
    await page.getByLabel('Current Password').fill(admin.password);
    await page.getByLabel('New Password', { exact: true }).fill('cucumbers-2027');
    await page.getByLabel('Confirm New Password').fill('cucumbers-2028');
    await page.getByRole('button', { name: 'Update Password' }).click();
    await page.getByText('New passwords do not match').waitFor();

    await page.getByLabel('Confirm New Password').fill('cucumbers-2027');
    await page.getByRole('button', { name: 'Update Password' }).click();
    await toasts(page).filter({ hasText: 'Password updated successfully' }).waitFor();
    const newToken = await page.evaluate(() => localStorage.getItem('token'));
    expect(newToken).not.toBe(oldToken);
    // The old token is revoked; the stored one works.
    expect((await http().get('/api/auth/me', oldToken!)).status).toBe(401);
    expect((await http().get('/api/auth/me', newToken!)).status).toBe(200);

    await page.getByRole('button', { name: 'Extend Session' }).click();
    await toasts(page).filter({ hasText: 'Session extended' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Settings' }).waitFor();

    admin.password = 'cucumbers-2027';
    const fresh = await session.newPage();
    await signInViaUi(fresh, admin);
  });

  it('viewers can edit their profile but not the greenhouse settings', async () => {
    const page = await openSettings(viewer);
    expect(await page.getByRole('button', { name: 'Save Changes' }).isEnabled()).toBe(true);
    await page.getByRole('tab', { name: 'Alert Thresholds' }).click();
    expect(await page.getByLabel('Temperature High (°C)').isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Save Thresholds' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Reset All' }).isDisabled()).toBe(true);
    await page.getByRole('tab', { name: 'System' }).click();
    expect(await page.getByRole('button', { name: 'Save Settings' }).isDisabled()).toBe(true);
    expect(await page.getByLabel('Maintenance mode').isDisabled()).toBe(true);
  });

  it("says 'Failed to load settings' when the settings cannot be loaded", async () => {
    const page = await session.newPage();
    await signInViaUi(page, admin);
    await page.route('**/api/settings/**', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ success: false, message: 'Server error occurred' }) }),
    );
    await page.goto('/dashboard/settings');
    await toasts(page).filter({ hasText: 'Failed to load settings' }).waitFor();
    await page.getByRole('tab', { name: 'System' }).click();
    await page.getByRole('alert').filter({ hasText: 'Failed to load settings' }).waitFor();
  });
});

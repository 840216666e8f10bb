// The dashboard shell: realtime connection, deep links, navigation, overview counts, phone layout.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { signInViaUi, signUpViaUi, toasts, useBrowserSession } from './harness.ts';

const user = { username: 'keeper', password: 'cucumbers-2026' };

describe('dashboard shell', () => {
  const session = useBrowserSession();

  async function signedInPage(options: { phone?: boolean } = {}): Promise<Page> {
    const page = await session.newPage(options);
    await signInViaUi(page, user);
    return page;
  }

  beforeAll(async () => {
    const page = await session.newPage();
    await signUpViaUi(page, user);
    await page.context().close();
  });

  it('connects the realtime link: indicator turns Connected and the banner says so, without a toast on a normal load', async () => {
    const page = await signedInPage();
    await page.getByTestId('connection-status').getByText('Connected', { exact: true }).waitFor();
    await page.getByText('System Connected').waitFor();
    await page.getByText('Real-time data updates active').waitFor();
    // 'Connected to greenhouse system' is news only after an outage (realtime.test.ts), not on every load.
    await page.waitForTimeout(300);
    expect(await toasts(page).filter({ hasText: 'Connected to greenhouse system' }).count()).toBe(0);
  });

  it('shows the overview stat cards and widgets, with no alerts ringing', async () => {
    const page = await signedInPage();
    const cards: [string, string][] = [
      ['stat-total-devices', 'Total Devices'],
      ['stat-active-devices', 'Active Devices'],
      ['stat-active-alerts', 'Active Alerts'],
      ['stat-critical-alerts', 'Critical Alerts'],
    ];
    for (const [testId, label] of cards) {
      const card = page.getByTestId(testId);
      await card.getByText(label, { exact: true }).waitFor();
      // A fresh gateway has the wiring config's six devices, all off, and no alerts: no alert card is red.
      expect(await card.locator('.stat-value').textContent()).toBe(testId === 'stat-total-devices' ? '6' : '0');
      expect(await card.getAttribute('class')).not.toContain('stat-card-alarm');
    }
    expect(await page.getByTestId('alert-bell').locator('.bell-count').count()).toBe(0);
    await page.getByText('Sensor Overview').waitFor();
    await page.getByTestId('environmental-status').waitFor();
  });

  it('reloads a deep link into the shell', async () => {
    const page = await signedInPage();
    await page.goto('/dashboard/sensors');
    await page.reload();
    await page.getByRole('heading', { name: 'Sensor Monitoring' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard/sensors');
    await page.getByText('System Online').waitFor();
  });

  it('navigates with the sidebar links', async () => {
    const page = await signedInPage();
    const nav = page.getByRole('navigation');
    const links: [string, string][] = [
      ['Sensor Monitoring', '/dashboard/sensors'],
      ['Device Control', '/dashboard/devices'],
      ['Alert System', '/dashboard/alerts'],
      ['Analytics', '/dashboard/analytics'],
      ['Settings', '/dashboard/settings'],
      ['Overview', '/dashboard'],
    ];
    for (const [label, path] of links) {
      await nav.getByRole('link', { name: label }).click();
      await page.waitForURL(`**${path}`);
    }
  });

  it('collapses the sidebar on a phone behind the menu button', async () => {
    const page = await signedInPage({ phone: true });
    const devices = page.getByRole('link', { name: 'Device Control' });
    // Off-canvas until the menu button opens it.
    const box = await devices.boundingBox();
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(0);
    await page.getByRole('button', { name: 'Open menu' }).click();
    await devices.click();
    await page.waitForURL('**/dashboard/devices');
  });

  it('keeps the session when the token is refused: a 401 sends the user to /login', async () => {
    const page = await signedInPage();
    await page.getByTestId('connection-status').getByText('Connected', { exact: true }).waitFor();
    await page.evaluate(() => localStorage.setItem('token', 'expired-token'));
    await page.reload();
    await page.waitForURL('**/login');
  });

  it("shows 'Loading greenhouse data...' until the first load settles", async () => {
    const page = await session.newPage();
    await signInViaUi(page, user);
    // Hold the device list back so the loading state is observable after a reload.
    await page.route('**/api/devices/greenhouse-001', async (route) => {
      await new Promise((r) => setTimeout(r, 1000));
      await route.continue();
    });
    await page.reload();
    await page.getByText('Loading greenhouse data...').waitFor();
    await page.getByText('Total Devices').waitFor();
    expect(await page.getByText('Loading greenhouse data...').count()).toBe(0);
  });

  it('pull-to-refresh: hint after 50 px, refresh past 100 px', async () => {
    const page = await signedInPage({ phone: true });
    await page.getByText('Total Devices').waitFor();
    await page.route('**/api/devices/greenhouse-001', async (route) => {
      await new Promise((r) => setTimeout(r, 800));
      await route.continue();
    });
    const touch = (type: string, y: number) =>
      page.evaluate(
        ([type, y]) => {
          const point = new Touch({ identifier: 1, target: document.body, clientX: 200, clientY: y as number });
          const touches = type === 'touchend' ? [] : [point];
          document.body.dispatchEvent(new TouchEvent(type as string, { touches, changedTouches: [point], bubbles: true }));
        },
        [type, y] as const,
      );
    await touch('touchstart', 150);
    await touch('touchmove', 180); // 30 px: no hint yet
    expect(await page.getByText('Pull down to refresh').count()).toBe(0);
    await touch('touchmove', 210); // 60 px
    await page.getByText('Pull down to refresh').waitFor();
    await touch('touchmove', 270); // 120 px
    const refetch = page.waitForRequest((r) => r.url().includes('/api/devices/greenhouse-001'));
    await touch('touchend', 270);
    await page.getByText('Refreshing...').waitFor();
    await refetch;
    await page.getByText('Refreshing...').waitFor({ state: 'detached' });
  });

  it("applies the user's dark theme preference", async () => {
    const page = await signedInPage();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
    const ok = await page.evaluate(async () => {
      const response = await fetch('/api/auth/profile', {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${localStorage.getItem('token')}` },
        body: JSON.stringify({ preferences: { theme: 'dark' } }),
      });
      return response.ok;
    });
    expect(ok).toBe(true);
    await page.reload(); // the startup profile check brings the new preference
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'light');
  });
});

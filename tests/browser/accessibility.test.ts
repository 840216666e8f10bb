// Axe-core (WCAG 2.x A/AA, injected into the page) finds no serious or critical violation on
// any screen, in both themes, at phone (390 px) and laptop (1366 px) width.
// With SCREENSHOT_DIR set, it also saves a full-page screenshot of every screen it checks.
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { httpClient, registerUser } from '../support/http.ts';
import { signInViaUi, useBrowserSession } from './harness.ts';

const AXE_PATH = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const SCREENSHOT_DIR = process.env.SCREENSHOT_DIR;

/** Each screen as a user reaches it: its link in the sidebar (the menu on a phone), then its tab. */
const SCREENS: Array<{ name: string; path: string; link: string; tab?: string }> = [
  { name: 'overview', path: '/dashboard', link: 'Overview' },
  { name: 'sensors', path: '/dashboard/sensors', link: 'Sensor Monitoring' },
  { name: 'devices', path: '/dashboard/devices', link: 'Device Control' },
  { name: 'climate', path: '/dashboard/climate', link: 'Climate Program' },
  { name: 'alerts', path: '/dashboard/alerts', link: 'Alert System' },
  { name: 'analytics', path: '/dashboard/analytics', link: 'Analytics' },
  { name: 'settings-profile', path: '/dashboard/settings', link: 'Settings', tab: 'Profile' },
  { name: 'settings-notifications', path: '/dashboard/settings', link: 'Settings', tab: 'Notifications' },
  { name: 'settings-phone-app', path: '/dashboard/settings', link: 'Settings', tab: 'Phone App' },
  { name: 'settings-thresholds', path: '/dashboard/settings', link: 'Settings', tab: 'Alert Thresholds' },
  { name: 'settings-system', path: '/dashboard/settings', link: 'Settings', tab: 'System' },
  { name: 'settings-device-safety', path: '/dashboard/settings', link: 'Settings', tab: 'Device Safety' },
  { name: 'settings-security', path: '/dashboard/settings', link: 'Settings', tab: 'Security' },
  { name: 'settings-simulator', path: '/dashboard/settings', link: 'Settings', tab: 'Simulator' },
  { name: 'settings-users', path: '/dashboard/settings', link: 'Settings', tab: 'Users' },
  { name: 'settings-alert-channels', path: '/dashboard/settings', link: 'Settings', tab: 'Alert Channels' },
];

interface Finding {
  id: string;
  impact: string | null;
  nodes: string[];
}

async function seriousViolations(page: Page): Promise<Finding[]> {
  // Once per document: the screens below are reached in the app, without reloading it.
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE_PATH });
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: Array<{ id: string; impact: string | null; nodes: Array<{ target: string[] }> }> }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) }));
  });
}

describe('accessibility (axe-core) on every screen, both themes, both widths', () => {
  const session = useBrowserSession();
  const users = { light: { username: 'axelight', password: 'accessible-1' }, dark: { username: 'axedark', password: 'accessible-2' } };

  beforeAll(async () => {
    const http = httpClient(session.server.url);
    const token = await registerUser(http, users.light);
    // A second self-registration is a viewer waiting for approval; the admin creates this
    // operator instead, so both themes are checked on the same (operator) screens as before.
    const darkToken = await registerUser(http, { ...users.dark, role: 'operator' }, token);
    await http.put('/api/auth/profile', { preferences: { theme: 'dark', alertNotifications: false, emailNotifications: false } }, darkToken);
    await http.put('/api/auth/profile', { preferences: { theme: 'light', alertNotifications: false, emailNotifications: false } }, token);
    // The second account signs up as a viewer awaiting approval: the admin makes it an admin too, so
    // both themes are checked with the device controls, the dialogs and the admin-only tabs (Device
    // Safety, Simulator, Users) on screen.
    expect((await http.put(`/api/users/${users.dark.username}`, { role: 'admin' }, token)).status).toBe(200);
    // An alert channel nobody listens on (a refused loopback port): the delivery log shows a retry.
    await http.post('/api/notifications/channels', { channelId: 'phone', kind: 'ntfy', target: 'http://127.0.0.1:9/greenhouse', minSeverity: 'CRITICAL', quietHours: { from: '22:00', to: '06:00' } }, token);
    // Alerts of every severity, so their badges and colours are checked too.
    for (const severity of ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW']) {
      await http.post('/api/alerts/greenhouse-001', { alertType: `TEST_${severity}`, severity, message: `A ${severity.toLowerCase()} test alert`, deviceId: 'fan-1' }, token);
    }
    await http.post('/api/devices/light-1/control', { action: 'on' }, token);
    // A drained tank: the pump card shows its lock and a disabled Turn On.
    await http.post('/api/simulator/tank', { levelCm: 2 }, token);
    await http.post('/api/devices/fan-1/automation', { automationRules: { temperatureHigh: 60 }, autoMode: true }, token);
    if (SCREENSHOT_DIR) mkdirSync(SCREENSHOT_DIR, { recursive: true });
  });

  for (const theme of ['light', 'dark'] as const) {
    for (const width of [390, 1366]) {
      it(`${theme} theme at ${width} px`, async () => {
        const context = await session.browser.newContext({ baseURL: session.server.url, viewport: { width, height: width < 600 ? 844 : 900 }, hasTouch: width < 600, bypassCSP: true });
        context.setDefaultTimeout(10_000);
        try {
          const page = await context.newPage();
          const found: string[] = [];
          const check = async (name: string) => {
            // Checked as a user reads it: the screen's data in, no spinner or loading line left.
            await page.waitForFunction(() => !document.querySelector('[role="progressbar"]') && !/Loading/.test(document.querySelector('main')?.textContent ?? ''));
            await page.waitForTimeout(200); // the charts draw after their data
            if (SCREENSHOT_DIR) await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-${theme}-${width}.png`), fullPage: true });
            for (const v of await seriousViolations(page)) found.push(`${name}: ${v.id} (${v.impact}) ${v.nodes.join(' | ')}`);
          };

          await page.goto('/login');
          await page.getByRole('button', { name: 'Sign In' }).waitFor();
          await check('login');
          await signInViaUi(page, users[theme]);
          await page.waitForFunction((t) => document.documentElement.dataset.theme === t, theme);
          const openScreen = async (link: string, path: string) => {
            if (width < 600) await page.getByRole('button', { name: 'Open menu' }).click();
            await page.locator('#sidebar').getByRole('link', { name: link, exact: true }).click();
            await page.waitForURL((url) => url.pathname === path);
            // The drawer closes on a phone: checked as the user then sees the screen.
            await page.locator('#sidebar.sidebar-open').waitFor({ state: 'detached' });
          };
          for (const screen of SCREENS) {
            if (new URL(page.url()).pathname !== screen.path) await openScreen(screen.link, screen.path);
            await page.locator('main .screen').waitFor();
            if (screen.tab) await page.getByRole('tab', { name: screen.tab }).click();
            await check(screen.name);
          }
          await openScreen('Device Control', '/dashboard/devices');
          await page.getByRole('button', { name: 'Add Device' }).first().click();
          await page.getByRole('dialog').waitFor();
          await check('devices-add-dialog');
          // The Automation Settings dialog, with a schedule and a preview on screen.
          await page.keyboard.press('Escape');
          await page.getByRole('dialog').waitFor({ state: 'hidden' });
          await page.getByTestId('device-fan-1').getByRole('button', { name: 'Automation Settings' }).click();
          const automation = page.getByRole('dialog');
          await automation.getByLabel('Only within a schedule').check();
          await automation.getByRole('button', { name: 'Preview' }).click();
          // The preview runs on a worker thread at nice 19: behind a fully loaded machine (the suite
          // keeps both cores busy with Chromium) it waits for what the rest leaves.
          await automation.getByTestId('preview-strip').waitFor({ timeout: 30_000 });
          await check('devices-automation-dialog');
          // A device's control log, and the app's confirmation dialog.
          await page.keyboard.press('Escape');
          await page.getByRole('dialog').waitFor({ state: 'hidden' });
          await page.getByTestId('device-pump-1').getByTestId('device-locks').waitFor();
          await page.getByTestId('device-light-1').getByRole('button', { name: 'Control log of LED Grow Light' }).click();
          await page.getByRole('dialog').getByTestId('control-log-entry').first().waitFor();
          await check('devices-control-log');
          await page.keyboard.press('Escape');
          await page.getByRole('dialog').waitFor({ state: 'hidden' });
          await page.getByRole('button', { name: 'Turn Off All Devices' }).click();
          await page.getByRole('alertdialog').waitFor();
          await check('devices-confirm');
          await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel' }).click();
          expect(found).toEqual([]);
        } finally {
          await context.close();
        }
      }, 120_000);
    }
  }
});

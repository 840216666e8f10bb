// Settings > Users, as an admin does it, against the real gateway; what an operator and a
// pending account see instead; and the dashboard loading under the gateway's Content-Security-Policy.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { httpClient, registerUser } from '../support/http.ts';
import { type Credentials, signInViaUi, signUpViaUi, answerConfirm, toasts, useBrowserSession } from './harness.ts';

const admin: Credentials = { username: 'grower', password: 'tomatoes-2026' };
const operator: Credentials = { username: 'olga', password: 'runs-the-pumps-1', role: 'operator' };
const newcomer: Credentials = { username: 'newbie', password: 'wants-control-1', role: 'operator' };

describe('users tab', () => {
  const session = useBrowserSession();
  const http = () => httpClient(session.server.url);
  let adminToken = '';

  async function signedIn(user: Credentials): Promise<Page> {
    const page = await session.newPage();
    await signInViaUi(page, user);
    return page;
  }

  async function openUsers(page: Page): Promise<void> {
    await page.goto('/dashboard/settings');
    await page.getByRole('tab', { name: 'Users' }).click();
    await page.getByRole('heading', { name: 'Pending requests' }).waitFor();
  }

  const apiUser = async (username: string) => (await http().get('/api/users', adminToken)).body.data.find((u: any) => u.username === username);

  beforeAll(async () => {
    adminToken = await registerUser(http(), { username: admin.username, password: admin.password });
    await registerUser(http(), { username: operator.username, password: operator.password, role: 'operator' }, adminToken);
  });

  it('a sign-up asking for operator is told on screen that it waits for an admin, and sees nothing else', async () => {
    const page = await session.newPage();
    await signUpViaUi(page, newcomer);
    await page.getByTestId('pending-screen').getByText('Your request is waiting for an administrator').waitFor();
    await page.getByTestId('pending-screen').getByText('operator', { exact: true }).waitFor();
    // No dashboard behind it: the gateway refuses a pending account everything but its profile.
    await page.goto('/dashboard/settings');
    await page.getByTestId('pending-screen').waitFor();
    expect(await page.getByRole('tab', { name: 'Users' }).count()).toBe(0);
  });

  it('the admin sees the pending request first and grants it', async () => {
    const page = await signedIn(admin);
    await openUsers(page);
    const request = page.getByTestId('pending-newbie');
    await request.getByText('asks for', { exact: false }).waitFor();
    // Pending accounts come first in the account list too.
    const rows = await page.locator('[data-testid^="user-"]').evaluateAll((els) => els.map((el) => el.getAttribute('data-testid')));
    expect(rows[0]).toBe('user-newbie');
    await request.getByRole('button', { name: 'Grant operator' }).click();
    await toasts(page).filter({ hasText: 'newbie is now operator' }).waitFor();
    await page.getByText('No one is waiting for a role.').waitFor();
    expect(await apiUser('newbie')).toMatchObject({ role: 'operator', requestedRole: null });
  });

  it('changes a role and deletes an account after confirming', async () => {
    const page = await signedIn(admin);
    await openUsers(page);
    await page.getByLabel('Role of newbie').selectOption('viewer');
    await toasts(page).filter({ hasText: 'newbie is now viewer' }).waitFor();
    expect((await apiUser('newbie')).role).toBe('viewer');

    await page.getByRole('button', { name: 'Delete newbie' }).click();
    expect(await answerConfirm(page, 'confirm')).toMatch(/Delete the account newbie/);
    await toasts(page).filter({ hasText: 'newbie deleted' }).waitFor();
    await page.getByTestId('user-newbie').waitFor({ state: 'detached' });
    expect(await apiUser('newbie')).toBeUndefined();
  });

  it('creates an account, and refuses to demote the last admin with the server\'s reason', async () => {
    const page = await signedIn(admin);
    await openUsers(page);
    await page.getByLabel('New username').fill('helper');
    await page.getByLabel("New user's email").fill('helper@example.test');
    await page.getByLabel('Initial password').fill('helps-out-123');
    await page.getByLabel("New user's role").selectOption('operator');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await toasts(page).filter({ hasText: 'helper created' }).waitFor();
    await page.getByTestId('user-helper').waitFor();
    expect(await apiUser('helper')).toMatchObject({ role: 'operator', requestedRole: null });

    await page.getByLabel(`Role of ${admin.username}`).selectOption('operator');
    await toasts(page).filter({ hasText: 'last admin' }).waitFor();
    expect((await apiUser(admin.username)).role).toBe('admin');
  });

  it('an operator sees system and device safety settings and Reset All disabled, with the reason, and no Users tab', async () => {
    const page = await signedIn(operator);
    await page.goto('/dashboard/settings');
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    expect(await page.getByRole('tab', { name: 'Users' }).count()).toBe(0);
    await page.getByRole('tab', { name: 'System' }).click();
    await page.getByTestId('role-reason').getByText('Only an admin can change these settings.').waitFor();
    expect(await page.getByRole('button', { name: 'Save Settings' }).isDisabled()).toBe(true);
    expect(await page.getByLabel('Data Retention (days)').isDisabled()).toBe(true);
    await page.getByRole('tab', { name: 'Device Safety' }).click();
    await page.getByTestId('role-reason').getByText('Only an admin can change these settings.').waitFor();
    expect(await page.getByLabel('Heater Cut-off (°C)').isDisabled()).toBe(true);
    await page.getByRole('tab', { name: 'Alert Thresholds' }).click();
    // Thresholds are the operator's; resetting everything is not.
    expect(await page.getByRole('button', { name: 'Save Thresholds' }).isEnabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Reset All' }).isDisabled()).toBe(true);
    await page.getByTestId('role-reason').getByText('Only an admin can reset all settings', { exact: false }).waitFor();
  });

  it('every screen loads under the Content-Security-Policy without a violation', async () => {
    const page = await session.newPage();
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to (load|execute|apply|connect|frame)/i.test(message.text())) violations.push(message.text());
    });
    await page.exposeFunction('reportViolation', (text: string) => violations.push(text));
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) =>
        (window as unknown as { reportViolation(text: string): void }).reportViolation(`${event.violatedDirective} ${event.blockedURI}`),
      );
    });
    const response = await page.goto('/login');
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    await signInViaUi(page, admin);
    for (const [path, title] of [
      ['/dashboard', 'Temperature'],
      ['/dashboard/sensors', 'Sensor Monitoring'],
      ['/dashboard/devices', 'Device Control'],
      ['/dashboard/alerts', 'Alert System'],
      ['/dashboard/analytics', 'Analytics Dashboard'],
      ['/dashboard/settings', 'Settings'],
    ] as const) {
      await page.goto(path);
      await page.getByText(title, { exact: true }).first().waitFor();
    }
    await page.getByTestId('connection-status').getByText('Connected', { exact: true }).waitFor();
    expect(violations).toEqual([]);
  });
});

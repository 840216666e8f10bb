// The approval flow from both sides (server/auth/README.md, "Pending accounts"), in Chromium against
// the real gateway: a newcomer signs up and is told on screen that the request waits; the admin sees
// it beside the bell and grants it in Settings > Users; the newcomer's open page says so and lets them
// in without signing in again. Screenshots at 390 px (a phone) and 1366 px into SCREENSHOT_DIR
// (default /work/screens/access when that folder exists).
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { httpClient, registerUser } from '../support/http.ts';
import { type Credentials, signInViaUi, signUpViaUi, toasts, useBrowserSession } from './harness.ts';

const SHOTS = process.env.SCREENSHOT_DIR ?? (existsSync('/work/screens') ? '/work/screens/access' : null);
const admin: Credentials = { username: 'grower', password: 'tomatoes-2026' };

async function shot(page: Page, name: string): Promise<void> {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

describe.each([390, 1366])('access approval at %i px', (width) => {
  const session = useBrowserSession();
  const pageOptions = { viewport: { width, height: width < 600 ? 844 : 900 }, phone: width < 600 };

  it('first run asks for the setup code; a newcomer waits on screen; the admin grants; the newcomer is let in', async () => {
    // First run: the login screen says there is no administrator yet and asks for the setup code.
    const first = await session.newPage(pageOptions);
    await first.goto('/login');
    await first.getByTestId('first-run-note').waitFor();
    await first.getByRole('button', { name: "Don't have an account? Sign up" }).click();
    await first.getByLabel('Setup code').waitFor();
    await shot(first, `first-run-${width}`);
    await first.context().close();
    await registerUser(httpClient(session.server.url), { username: admin.username, password: admin.password });

    const newcomer = { username: `newbie${width}`, password: 'wants-control-1', role: 'operator' as const };
    const waiting = await session.newPage(pageOptions);
    await signUpViaUi(waiting, newcomer);
    const pendingScreen = waiting.getByTestId('pending-screen');
    await pendingScreen.getByText('Your request is waiting for an administrator').waitFor();
    await shot(waiting, `pending-${width}`);

    const adminPage = await session.newPage(pageOptions);
    await signInViaUi(adminPage, admin);
    const badge = adminPage.getByTestId('access-requests');
    await badge.getByText('1').waitFor();
    expect(await badge.getAttribute('aria-label')).toBe('1 access request waiting');
    await shot(adminPage, `admin-badge-${width}`);
    await badge.click();
    const request = adminPage.getByTestId(`pending-${newcomer.username}`);
    await request.getByText('asks for', { exact: false }).waitFor();
    await shot(adminPage, `admin-users-${width}`);
    // Watched from before the grant: the toast lives 4 s, and the waiting page checks every 5 s.
    await waiting.bringToFront();
    const told = toasts(waiting).filter({ hasText: 'Access granted: you are now an operator' }).waitFor({ timeout: 20_000 });
    await request.getByRole('button', { name: 'Grant operator' }).click();
    await toasts(adminPage).filter({ hasText: `${newcomer.username} is now operator` }).waitFor();
    await badge.waitFor({ state: 'detached' });

    // The newcomer's page, left open, is told and goes in: no silent sign-out.
    await told;
    await pendingScreen.waitFor({ state: 'detached' });
    await waiting.getByRole('heading', { name: 'Greenhouse Dashboard' }).waitFor();
    // (On a phone the header hides the role; the sidebar shows it.)
    expect(await waiting.locator('.header-role').first().textContent()).toBe('operator');
    await shot(waiting, `granted-${width}`);
    // Three pages, two sign-ins and the waiting page's 5 s check: 23-31 s on a loaded two-core machine.
  }, 60_000);
});

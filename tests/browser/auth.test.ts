// Sign up, sign in, wrong password, logout, redirects and the password toggle, through the real UI
// against the real gateway (the texts of docs/product.md §2, §4, §8).
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { fillSignIn, signInViaUi, signUpViaUi, toasts, useBrowserSession } from './harness.ts';

const admin = { username: 'grower', password: 'tomatoes-2026', role: 'operator' as const };

describe('sign-in and sign-up', () => {
  const session = useBrowserSession();

  async function freshPage(): Promise<Page> {
    return session.newPage();
  }

  it('redirects / and /dashboard to /login when signed out, with no demo hint when demo mode is off', async () => {
    const page = await freshPage();
    await page.goto('/');
    await page.waitForURL('**/login');
    await page.goto('/dashboard');
    await page.waitForURL('**/login');
    await page.goto('/dashboard/sensors');
    await page.waitForURL('**/login');
    await expect(page.getByRole('button', { name: 'Sign In' }).isVisible()).resolves.toBe(true);
    expect(await page.getByText('Demo credentials').count()).toBe(0);
  });

  it('signs up the first account, which becomes admin, and welcomes it', async () => {
    const page = await freshPage();
    await signUpViaUi(page, admin);
    await toasts(page).filter({ hasText: `Welcome, ${admin.username}!` }).waitFor();
    const header = page.locator('header');
    await header.getByText(admin.username).waitFor();
    // docs/decisions.md: the first account ever created becomes admin, whatever role it asked for.
    await header.getByText('admin', { exact: true }).waitFor();
    await page.getByText('Greenhouse Dashboard').first().waitFor();
    await page.getByText('Real-time monitoring and control').waitFor();
  });

  it('shows the server message for a wrong password and stays on /login', async () => {
    const page = await freshPage();
    await page.goto('/login');
    await fillSignIn(page, { username: admin.username, password: 'wrong-password' });
    await page.getByRole('button', { name: 'Sign In' }).click();
    await toasts(page).filter({ hasText: 'Invalid username or password' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  });

  it('signs in, keeps the session across reloads, redirects /login and / to /dashboard, and logs out', async () => {
    const page = await freshPage();
    await signInViaUi(page, admin);
    await toasts(page).filter({ hasText: `Welcome back, ${admin.username}!` }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeTruthy();
    expect(JSON.parse((await page.evaluate(() => localStorage.getItem('user'))) ?? '{}').username).toBe(admin.username);

    await page.goto('/login');
    await page.waitForURL('**/dashboard');
    await page.goto('/');
    await page.waitForURL('**/dashboard');
    await page.goto('/no/such/page');
    await page.waitForURL('**/dashboard');

    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL('**/login');
    await toasts(page).filter({ hasText: 'Logged out successfully' }).waitFor();
    expect(await page.evaluate(() => [localStorage.getItem('token'), localStorage.getItem('user')])).toEqual([null, null]);
    await page.goto('/dashboard');
    await page.waitForURL('**/login');
  });

  it('drops a stored token the server rejects at startup', async () => {
    const page = await freshPage();
    await page.goto('/login');
    await page.evaluate(() => {
      localStorage.setItem('token', 'not-a-real-token');
      localStorage.setItem('user', JSON.stringify({ username: 'ghost', role: 'admin' }));
    });
    await page.goto('/dashboard');
    await page.waitForURL('**/login');
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  });

  it('toggles password visibility', async () => {
    const page = await freshPage();
    await page.goto('/login');
    const password = page.getByLabel('Password', { exact: true });
    await password.fill('secret');
    expect(await password.getAttribute('type')).toBe('password');
    await page.getByRole('button', { name: 'Show password' }).click();
    expect(await password.getAttribute('type')).toBe('text');
    await page.getByRole('button', { name: 'Hide password' }).click();
    expect(await password.getAttribute('type')).toBe('password');
  });

  it('sign-up form has email (type=email) and a role select defaulting to operator', async () => {
    const page = await freshPage();
    await page.goto('/login');
    expect(await page.getByLabel('Email').count()).toBe(0);
    await page.getByRole('button', { name: "Don't have an account? Sign up" }).click();
    expect(await page.getByLabel('Email').getAttribute('type')).toBe('email');
    expect(await page.getByLabel('Role').inputValue()).toBe('operator');
    // No Admin on offer (the gateway refuses it; docs/decisions.md, Users and roles).
    expect(await page.getByLabel('Role').locator('option').allTextContents()).toEqual(['Operator', 'Viewer']);
    await page.getByRole('button', { name: 'Already have an account? Sign in' }).click();
    await page.getByRole('button', { name: 'Sign In' }).waitFor();
  });
});

// Demo mode (GREENHOUSE_DEMO): the login screen shows the seeded admin's credentials, and they work.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, newPage, signInViaUi, startGatewayForBrowser, toasts, type BrowserGateway } from './harness.ts';

describe('demo mode', () => {
  let server: BrowserGateway;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startGatewayForBrowser({ demo: true }), launchBrowser()]);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shows the demo credentials hint, and they sign in', async () => {
    const { context, page } = await newPage(browser, server.url);
    try {
      await page.goto('/login');
      const hint = page.getByTestId('demo-hint');
      await hint.waitFor();
      const text = (await hint.textContent()) ?? '';
      const match = /Demo credentials: (\S+) \/ (\S+)/.exec(text);
      expect(match).not.toBeNull();
      await signInViaUi(page, { username: match![1]!, password: match![2]! });
      await toasts(page).filter({ hasText: `Welcome back, ${match![1]}!` }).waitFor();
    } finally {
      await context.close();
    }
  });
});

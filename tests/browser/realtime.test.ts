// The realtime link's failure paths, driven through Playwright's websocket routing: the page talks to
// the real gateway through a proxy that the test can cut, refuse, or inject server messages into.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page, WebSocketRoute } from 'playwright-core';
import { signInViaUi, signUpViaUi, toasts, useBrowserSession } from './harness.ts';

const user = { username: 'sower', password: 'peppers-2026' };

describe('realtime link', () => {
  const session = useBrowserSession();

  async function freshPage(): Promise<Page> {
    return session.newPage();
  }

  const indicator = (page: Page, text: 'Connected' | 'Disconnected') =>
    page.getByTestId('connection-status').getByText(text, { exact: true });

  beforeAll(async () => {
    const page = await freshPage();
    await signUpViaUi(page, user);
  });

  it("toasts 'Connection lost: {reason}' when an established link drops, then reconnects", async () => {
    const page = await freshPage();
    const sockets: WebSocketRoute[] = [];
    await page.routeWebSocket('**/ws', (ws) => {
      ws.connectToServer();
      sockets.push(ws);
    });
    await signInViaUi(page, user);
    await indicator(page, 'Connected').waitFor();

    await sockets[0]!.close({ code: 1012, reason: 'gateway restarting' });
    await toasts(page).filter({ hasText: 'Connection lost: gateway restarting' }).waitFor();
    await indicator(page, 'Disconnected').waitFor();
    await page.getByText('System Disconnected').waitFor();
    await page.getByText('Check your connection').waitFor();

    // Reconnection delay is 2 s (docs/product.md §9); coming back after an outage is said.
    await indicator(page, 'Connected').waitFor();
    await toasts(page).filter({ hasText: 'Connected to greenhouse system' }).waitFor();
    expect(sockets.length).toBe(2);
  });

  it("toasts 'Connection failed: {reason}' when the link cannot be made", async () => {
    const page = await freshPage();
    await page.routeWebSocket('**/ws', (ws) => ws.close({ code: 1011, reason: 'hub unavailable' }));
    await signInViaUi(page, user);
    await toasts(page).filter({ hasText: 'Connection failed: hub unavailable' }).waitFor();
    await indicator(page, 'Disconnected').waitFor();
  });

  it('treats close code 4401 as signed out', async () => {
    const page = await freshPage();
    await page.routeWebSocket('**/ws', (ws) => ws.close({ code: 4401, reason: 'Unauthorized' }));
    await signInViaUi(page, user);
    await page.waitForURL('**/login');
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  });

  it('does not toast a lost connection on logout', async () => {
    const page = await freshPage();
    await signInViaUi(page, user);
    await indicator(page, 'Connected').waitFor();
    await page.getByRole('button', { name: 'Logout' }).click();
    await toasts(page).filter({ hasText: 'Logged out successfully' }).waitFor();
    await page.waitForTimeout(300);
    expect(await toasts(page).filter({ hasText: 'Connection lost' }).count()).toBe(0);
  });

  it('refetches devices and alerts when their realtime events arrive', async () => {
    const page = await freshPage();
    let socket: WebSocketRoute | null = null;
    await page.routeWebSocket('**/ws', (ws) => {
      ws.connectToServer();
      socket = ws;
    });
    await signInViaUi(page, user);
    await indicator(page, 'Connected').waitFor();

    const devicesFetch = page.waitForRequest((r) => r.url().includes('/api/devices/greenhouse-001'));
    const alertsFetch = page.waitForRequest((r) => r.url().includes('/api/alerts/active/greenhouse-001'));
    socket!.send(JSON.stringify({ event: 'deviceRemoved', data: { greenhouseId: 'greenhouse-001', deviceId: 'fan-1' } }));
    socket!.send(JSON.stringify({ event: 'alertResolved', data: { _id: 'a1', alertType: 'high_temperature' } }));
    // Even if the first load of either list is still on its way, the event asks again after it.
    await Promise.all([devicesFetch, alertsFetch]);
    await toasts(page).filter({ hasText: 'Alert resolved: high temperature' }).waitFor();
  });
});

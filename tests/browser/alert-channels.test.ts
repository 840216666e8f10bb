// Alerts that reach a grower, as the admin and a grower on a phone use them: Settings > Alert Channels
// (add a channel against a local receiver, test it, read the delivery log), the CRITICAL banner that
// stays until acknowledged, the acknowledge link of a notification, and toasts that neither cover the
// control in use nor outlive an attempt that later succeeded. Screenshots go to SCREENS.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Page } from 'playwright-core';
import { httpClient } from '../support/http.ts';
import { startReceiver } from '../support/receivers.ts';
import { signInViaUi, signUpViaUi, toasts, useBrowserSession } from './harness.ts';

const SCREENS = process.env.SCREENSHOT_DIR ?? '/work/screens/alerts';
const grower = { username: 'grower', password: 'tomatoes-2026' };
const SECRET = 'browser-test-secret-16';

/** `HH:MM`, local time (the gateway's), `hours` from now. */
function clockIn(hours: number): string {
  const at = new Date(Date.now() + hours * 3_600_000);
  return `${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}`;
}
// Quiet hours that start six hours from now and cross eight: the channel is never quiet while the test
// runs, whatever the time of day (a fixed 22:00–06:00 held the CRITICAL back on a run at 22:12).
const QUIET = { from: clockIn(6), to: clockIn(14) };

describe('alert channels, delivery log and the critical banner', () => {
  const session = useBrowserSession();
  let hook: Awaited<ReturnType<typeof startReceiver>>;
  let phone: Awaited<ReturnType<typeof startReceiver>>;
  let token = '';
  const http = () => httpClient(session.server.url);

  beforeAll(async () => {
    mkdirSync(SCREENS, { recursive: true });
    [hook, phone] = await Promise.all([startReceiver({ kind: 'webhook', secret: SECRET }), startReceiver({ kind: 'ntfy' })]);
    const page = await session.newPage();
    await signUpViaUi(page, grower);
    await page.context().close();
    token = (await http().post('/api/auth/login', grower)).body.token;
  });
  afterAll(async () => {
    await Promise.all([hook?.close(), phone?.close()]);
  });

  async function openChannels(page: Page): Promise<void> {
    await page.goto('/dashboard/settings');
    await page.getByRole('tab', { name: 'Alert Channels' }).click();
    await page.getByRole('heading', { name: 'Alert channels' }).waitFor();
  }

  it('the admin adds a signed webhook and an ntfy topic, is told what is wrong, and tests them', async () => {
    // Tall enough for the whole tab in one screenshot (a full-page capture repeats the sticky header).
    const page = await session.newPage({ viewport: { width: 1280, height: 1200 } });
    await signInViaUi(page, grower);
    await openChannels(page);
    await page.getByText('No channels yet').waitFor();

    await page.getByRole('button', { name: 'Add Channel' }).click();
    const editor = page.getByTestId('channel-editor');
    await editor.getByLabel('Name').fill('farm-hook');
    await editor.getByLabel('Kind').selectOption('webhook');
    await editor.getByLabel('URL').fill(`${hook.url}/greenhouse`);
    await editor.getByLabel('Minimum severity').selectOption('HIGH');
    // A short secret: the gateway names the field, nothing is stored.
    await editor.getByLabel('Signing secret (optional)').fill('too-short');
    await editor.getByRole('button', { name: 'Add Channel' }).click();
    await editor.getByRole('alert').filter({ hasText: 'secret' }).waitFor();
    expect((await http().get('/api/notifications/channels', token)).body.data).toEqual([]);
    await editor.getByLabel('Signing secret (optional)').fill(SECRET);
    await editor.getByRole('button', { name: 'Add Channel' }).click();
    await page.getByTestId('channel-farm-hook').waitFor();
    // The save succeeded: its earlier error toast is gone.
    await toasts(page).filter({ hasText: 'Channel added' }).waitFor();
    expect(await toasts(page).filter({ hasText: 'secret' }).count()).toBe(0);

    await page.getByRole('button', { name: 'Add Channel' }).click();
    await editor.getByLabel('Name').fill('phone');
    await editor.getByLabel('Kind').selectOption('ntfy');
    await editor.getByLabel('Topic URL').fill(`${phone.url}/greenhouse-alerts`);
    await editor.getByLabel('Minimum severity').selectOption('MEDIUM');
    await editor.getByRole('checkbox').check();
    await editor.getByLabel('From', { exact: true }).fill(QUIET.from);
    await editor.getByLabel('To', { exact: true }).fill(QUIET.to);
    await editor.getByRole('button', { name: 'Add Channel' }).click();
    await page.getByTestId('channel-phone').getByText(`quiet ${QUIET.from}–${QUIET.to}`, { exact: false }).waitFor();

    await page.getByTestId('channel-farm-hook').getByRole('button', { name: 'Test' }).click();
    await page.getByTestId('test-result-farm-hook').getByText('Delivered (HTTP 200)').waitFor();
    expect(hook.received.at(-1)!.signatureValid).toBe(true);
    await page.getByTestId('channel-phone').getByRole('button', { name: 'Test' }).click();
    await page.getByTestId('test-result-phone').getByText('Delivered').waitFor();
    expect(phone.received.at(-1)!.headers.title).toBe('Test notification');
    await page.screenshot({ path: join(SCREENS, 'channels-1280.png') });
  });

  it('on a phone, a failed test toast does not cover the button just tapped and goes when the next test succeeds', async () => {
    const page = await session.newPage({ phone: true });
    await signInViaUi(page, grower);
    await openChannels(page);
    const button = page.getByTestId('channel-phone').getByRole('button', { name: 'Test' });
    // The button sits at the bottom edge, where a phone's toasts appear.
    await button.evaluate((el) => window.scrollBy(0, el.getBoundingClientRect().bottom - (window.innerHeight - 16)));
    const before = await button.boundingBox();
    expect(before!.y + before!.height).toBeGreaterThan(844 - 80);
    phone.set({ status: 500 });
    await button.click();
    const failed = toasts(page).filter({ hasText: 'Test to phone failed: HTTP 500' });
    await failed.waitFor();
    const [toastBox, buttonBox] = [await failed.boundingBox(), await button.boundingBox()];
    expect(toastBox && buttonBox).toBeTruthy();
    const overlap = toastBox!.x < buttonBox!.x + buttonBox!.width && buttonBox!.x < toastBox!.x + toastBox!.width
      && toastBox!.y < buttonBox!.y + buttonBox!.height && buttonBox!.y < toastBox!.y + toastBox!.height;
    expect(overlap).toBe(false);
    // The channel's own row says its last attempt failed, and why, without opening the delivery log.
    await page.getByTestId('channel-health-phone').getByText(/^Last attempt failed \(.+\): HTTP 500/).waitFor();
    await page.screenshot({ path: join(SCREENS, 'toast-clear-of-control-390.png') });

    phone.set('ok');
    await button.click();
    await toasts(page).filter({ hasText: 'Test sent to phone' }).waitFor();
    await failed.waitFor({ state: 'detached' });
    await page.getByTestId('channel-health-phone').getByText(/^Last delivered /).waitFor();
  });

  it('a CRITICAL stays as a banner on the phone until acknowledged; the delivery log shows its deliveries', async () => {
    const page = await session.newPage({ phone: true });
    await signInViaUi(page, grower);
    const created = await http().post('/api/alerts/greenhouse-001', { alertType: 'FROST_RISK', severity: 'CRITICAL', message: 'Air at 0.5 °C in house 2' }, token);
    const id = created.body.data._id as string;
    await page.goto('/dashboard/devices');
    await page.getByRole('heading', { name: 'Ventilation Fans' }).waitFor();
    const banner = page.getByTestId('critical-banner');
    await banner.getByText('Air at 0.5 °C in house 2').waitFor();
    // Scrolled down the banner is still on screen (sticky under the header), and long after a toast fades.
    await page.mouse.wheel(0, 1500);
    expect(await banner.isVisible()).toBe(true);
    const box = await banner.boundingBox();
    expect(box!.y).toBeGreaterThanOrEqual(0);
    expect(box!.y).toBeLessThan(200);
    await page.screenshot({ path: join(SCREENS, 'critical-banner-390.png') });

    await banner.getByRole('button', { name: 'Acknowledge' }).click();
    await banner.waitFor({ state: 'detached' });
    const alert = (await http().get('/api/alerts/active/greenhouse-001', token)).body.data.find((a: any) => a._id === id);
    expect(alert).toMatchObject({ acknowledgedBy: 'grower' });
    await page.goto('/dashboard/alerts');
    await page.locator(`[data-alert-id="${id}"]`).getByText('Seen by grower').first().waitFor();

    // Both channels got the alert; the log on the phone says so with the attempts.
    await page.goto('/dashboard/settings');
    await page.getByRole('tab', { name: 'Alert Channels' }).click();
    const log = page.getByTestId('delivery-log');
    await log.getByText('CRITICAL: FROST RISK').first().waitFor();
    expect(await log.locator('.delivery-row', { hasText: 'CRITICAL: FROST RISK' }).count()).toBe(2);
    await log.getByText('Failed', { exact: true }).first().waitFor();
    await log.locator('summary').first().click();
    await page.getByTestId('delivery-log').screenshot({ path: join(SCREENS, 'delivery-log-390.png') });
  });

  it('the link of a notification opens the alert ready to acknowledge', async () => {
    const page = await session.newPage({ phone: true });
    await signInViaUi(page, grower);
    const created = await http().post('/api/alerts/greenhouse-001', { alertType: 'HEATER_FAILED', severity: 'CRITICAL', message: 'Heater 1 draws no current' }, token);
    const id = created.body.data._id as string;
    // The link ntfy's click opens (server/notifications/message.ts).
    const clickOf = () => phone.received.map((r) => String(r.headers.click ?? '')).find((c) => c.endsWith(`acknowledge=${id}`));
    await vi.waitFor(() => expect(clickOf()).toBeTruthy());
    const click = clickOf();
    await page.goto(new URL(click!).pathname + new URL(click!).search);
    const prompt = page.getByTestId('acknowledge-prompt');
    await prompt.getByText('Heater 1 draws no current').waitFor();
    await prompt.getByRole('button', { name: 'Acknowledge' }).click();
    await prompt.waitFor({ state: 'detached' });
    await page.getByTestId('critical-banner').waitFor({ state: 'detached' });
  });
});

// Water by the soil in the dashboard: a grower sets up a pump's irrigation program in its Automation
// Settings (a wrong target is refused in words before saving), the program and the flow are stored, the
// pump's water per day appears on Devices and Analytics, and the soil probe is calibrated in two steps. Screenshots for a person to look at go to
// /work/screens/irrigation/ (phone 390 px and desktop 1366 px).
import { mkdirSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { httpClient, registerUser } from '../support/http.ts';
import { type Credentials, signInViaUi, toasts, useBrowserSession } from './harness.ts';

const SCREENS = process.env.SCREENSHOT_DIR ?? '/work/screens/irrigation';
const admin: Credentials = { username: 'grower', password: 'tomatoes-2026' };
const DESKTOP = { width: 1366, height: 900 };

async function shot(page: Page, name: string, locator?: Locator): Promise<void> {
  mkdirSync(SCREENS, { recursive: true });
  const path = `${SCREENS}/${name}.png`;
  if (locator) await locator.screenshot({ path, animations: 'disabled' });
  else await page.screenshot({ path, animations: 'disabled', fullPage: false });
}

describe('irrigation in the dashboard', () => {
  const session = useBrowserSession();
  let token: string;
  const http = () => httpClient(session.server.url);

  beforeAll(async () => {
    token = await registerUser(http(), { username: admin.username, password: admin.password });
  });

  it('a grower sets a pulse-and-soak program and the pump flow in the pump’s Automation Settings', async () => {
    const page = await session.newPage({ phone: true });
    await signInViaUi(page, admin);
    await page.goto('/dashboard/devices');
    await page.getByTestId('device-pump-1').getByRole('button', { name: 'Automation Settings' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Auto Mode').check();
    const editor = dialog.getByTestId('irrigation-editor');
    await editor.getByLabel('Water by the soil (pulses and soaks)').check();
    await editor.getByLabel('Start below (%)').fill('35');
    await editor.getByLabel('Target (%)').fill('30');
    await editor.getByTestId('irrigation-statement').getByText('Target must be above the start level').waitFor();
    await editor.getByLabel('Target (%)').fill('45');
    await editor.getByLabel('Pulse (s)').fill('15');
    await editor.getByLabel('Soak (min)').fill('8');
    await editor.getByLabel('Pulses per cycle').fill('5');
    await editor.getByLabel('Daily run budget (s)').fill('300');
    await editor.getByLabel('Window from').fill('05:00');
    await editor.getByLabel('Window to').fill('21:00');
    await editor.getByLabel('Flow (L/min)').fill('2.4');
    await editor
      .getByTestId('irrigation-statement')
      .getByText('Below 35 %: pulses of 15 s (about 0.6 L each) with 8 min soaks until 45 %, at most 5 per cycle and 300 s a day, only 05:00-21:00, never on a low tank; if the probe is lost, no watering.')
      .waitFor();
    await shot(page, 'editor-phone', editor);
    // The preview replays the program over what was recorded (here a few seconds of wet simulated soil);
    // litres need the flow saved first.
    await dialog.getByRole('button', { name: 'Preview' }).click();
    await dialog.getByTestId('preview-irrigation').getByText(/^Irrigation: 0 pulses · 0 s$/).waitFor();
    await dialog.getByRole('button', { name: 'Save Settings' }).click();
    await toasts(page).filter({ hasText: 'Automation settings updated successfully' }).waitFor();

    const pump = (await http().get('/api/devices/greenhouse-001', token)).body.data.find((d: { deviceId: string }) => d.deviceId === 'pump-1');
    expect(pump.flowLitresPerMinute).toBe(2.4);
    expect(pump.autoMode).toBe(true);
    expect(pump.automationRules.irrigation).toEqual({
      startBelowPct: 35,
      targetPct: 45,
      pulseSeconds: 15,
      soakMinutes: 8,
      maxPulses: 5,
      maxRunSecondsPerDay: 300,
      window: { from: '05:00', to: '21:00' },
      fallbackEveryHours: null,
    });

    // Opened again, the dialog shows what was saved.
    await page.getByTestId('device-pump-1').getByRole('button', { name: 'Automation Settings' }).click();
    expect(await page.getByRole('dialog').getByLabel('Pulse (s)').inputValue()).toBe('15');
    expect(await page.getByRole('dialog').getByLabel('Flow (L/min)').inputValue()).toBe('2.4');
  });

  it('water per day on Devices and Analytics: runs, run time and litres', async () => {
    // Switch the program off so a person's run is what the day shows, then run the pump once.
    await http().post('/api/devices/pump-1/automation', { autoMode: false }, token);
    expect((await http().post('/api/devices/pump-1/control', { action: 'turn_on' }, token)).status).toBe(200);
    expect((await http().post('/api/devices/pump-1/control', { action: 'turn_off' }, token)).status).toBe(200);

    const page = await session.newPage({ viewport: DESKTOP });
    await signInViaUi(page, admin);
    await page.goto('/dashboard/devices');
    const card = page.getByTestId('water-pump-1');
    await card.getByRole('heading', { name: 'Water per day: Irrigation Pump' }).waitFor();
    // The heading comes before the data: wait for today's row.
    const today = card.locator('tbody tr').last();
    await today.waitFor();
    expect(await today.getByRole('cell').nth(1).textContent()).toBe('1');
    expect(await today.getByRole('cell').nth(2).textContent()).toMatch(/^\d+ s$/);
    expect(await today.getByRole('cell').nth(3).textContent()).toMatch(/^\d+\.\d{1,2}$/);
    await card.getByText(/L in 7 days at 2.4 L\/min/).waitFor();
    await card.scrollIntoViewIfNeeded();
    await shot(page, 'water-devices-desktop', card);

    await page.goto('/dashboard/analytics');
    const analytics = page.getByTestId('water-pump-1');
    await analytics.getByRole('heading', { name: 'Water per day: Irrigation Pump' }).waitFor();
    // The default range is 24 h: one day.
    await analytics.locator('tbody tr').first().waitFor();
    expect(await analytics.locator('tbody tr').count()).toBe(1);
    await analytics.scrollIntoViewIfNeeded();
    await shot(page, 'water-analytics-desktop');

    const phone = await session.newPage({ phone: true });
    await signInViaUi(phone, admin);
    await phone.goto('/dashboard/devices');
    const phoneCard = phone.getByTestId('water-pump-1');
    await phoneCard.getByRole('heading', { name: 'Water per day: Irrigation Pump' }).waitFor();
    await phoneCard.scrollIntoViewIfNeeded();
    await shot(phone, 'water-devices-phone', phoneCard);
  });

  it('Calibration tab: the soil probe in dry air, then in water, each with its live raw count', async () => {
    const page = await session.newPage({ phone: true });
    await signInViaUi(page, admin);
    await page.goto('/dashboard/settings?tab=calibration');
    const soil = page.getByTestId('calibrate-soil');
    // Step 1: the simulated bed set bone dry stands in for the probe held in dry air (the pump's program
    // was switched off by the test before, so nothing waters it).
    await http().post('/api/simulator/soil', { moisturePct: 0 }, token);
    await expect.poll(async () => Number(await soil.getByTestId('live-raw').textContent()), { timeout: 15_000 }).toBeGreaterThan(17_000);
    await soil.getByRole('button', { name: 'Use as dry' }).click();
    await shot(page, 'calibration-step1-phone', soil);
    // Step 2: soaked, as in a glass of water.
    await http().post('/api/simulator/soil', { moisturePct: 100 }, token);
    await expect.poll(async () => Number(await soil.getByTestId('live-raw').textContent()), { timeout: 15_000 }).toBeLessThan(8_000);
    await soil.getByRole('button', { name: 'Use as wet' }).click();
    const dry = Number((await soil.getByTestId('dry-raw').textContent())!.replace('dry = ', ''));
    const wet = Number((await soil.getByTestId('wet-raw').textContent())!.replace('wet = ', ''));
    await shot(page, 'calibration-step2-phone', soil);
    await soil.getByRole('button', { name: 'Save calibration' }).click();
    await toasts(page).filter({ hasText: 'Soil probe calibrated' }).waitFor();
    const saved = (await http().get('/api/sensors/calibration/greenhouse-001', token)).body.data.find((s: { sensorId: string }) => s.sensorId === 'soil');
    expect(saved).toMatchObject({ dryRaw: dry, wetRaw: wet, calibrated: true });
    await soil.getByText('calibrated here').waitFor();

    const desktop = await session.newPage({ viewport: DESKTOP });
    await signInViaUi(desktop, admin);
    await desktop.goto('/dashboard/settings?tab=calibration');
    await desktop.getByTestId('calibrate-ldr').waitFor();
    await shot(desktop, 'calibration-desktop');
  });
});

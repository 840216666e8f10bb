// In the dashboard: a grower sets up a climate program (a day from sunrise+30 and a night from sunset),
// sees a mistake named and marked, saves, and finds the 24 h curve with today's sun times, the current
// targets on the Overview, and the roof window set to follow the program. Screenshots at 390 and 1366 px.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { httpClient, registerUser } from '../support/http.ts';
import { type Credentials, signInViaUi, toasts, useBrowserSession } from './harness.ts';

const SHOTS = '/work/screens/climate';
const admin: Credentials = { username: 'grower', password: 'tomatoes-2026' };

describe('climate program editor', () => {
  const session = useBrowserSession({ overrides: { site: { latitude: 52.1, longitude: 5.1 } } });
  let token: string;
  const http = () => httpClient(session.server.url);

  async function open(path: string, options: { phone?: boolean; viewport?: { width: number; height: number } } = {}): Promise<Page> {
    const page = await session.newPage(options);
    await signInViaUi(page, admin);
    await page.goto(path);
    return page;
  }

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    token = await registerUser(http(), { username: admin.username, password: admin.password });
  });

  it('a mistake is named and marked, nothing is stored; the fixed program is saved and drawn with the sun times', async () => {
    const page = await open('/dashboard/climate', { viewport: { width: 1366, height: 900 } });
    const editor = page.getByTestId('climate-editor');
    await editor.waitFor();
    // The night heats to 16 °C: typed as 26 first, above its vent target of 21.
    const night = editor.getByTestId('period-1');
    await night.getByLabel('Heat below (°C)').fill('26');
    await editor.getByRole('button', { name: 'Save program' }).click();
    const error = page.getByTestId('climate-error');
    await error.getByText(/periods\.1\.heatBelowC \(26 °C\) must be below its ventAboveC \(21 °C\)/).waitFor();
    expect(await night.getByLabel('Heat below (°C)').getAttribute('aria-invalid')).toBe('true');
    expect((await http().get('/api/climate/default', token)).body.data).toBeNull();

    await night.getByLabel('Heat below (°C)').fill('16');
    await editor.getByTestId('period-0').getByLabel('Heat below (°C)').fill('21');
    await editor.getByRole('button', { name: 'Save program' }).click();
    await toasts(page).filter({ hasText: 'Climate program saved' }).waitFor();
    expect(await error.count()).toBe(0);
    const stored = (await http().get('/api/climate/default', token)).body.data;
    expect(stored.periods).toEqual([
      { start: 'sunrise+30', heatBelowC: 21, ventAboveC: 25, humidityAbovePct: 85, rampMinutes: 60 },
      { start: 'sunset', heatBelowC: 16, ventAboveC: 21, humidityAbovePct: null, rampMinutes: 60 },
    ]);

    // The curve is drawn (uPlot's canvas and legend) with both targets, and today's sun times are named.
    const curve = page.getByTestId('climate-curve');
    await curve.locator('canvas').waitFor();
    await curve.getByText('Heat below (°C)').waitFor();
    await curve.getByText('Vent above (°C)').waitFor();
    await page.getByTestId('climate-sun').getByText(/Sunrise \d{2}:\d{2} · Sunset \d{2}:\d{2}/).waitFor();
    await page.getByTestId('climate-targets').getByText(/Heat below/).waitFor();
    await page.screenshot({ path: join(SHOTS, 'climate-program-1366.png'), fullPage: true });
  });

  it('the Overview shows the targets in force and links to the program', async () => {
    const climateNow = async () => (await http().get('/api/climate/default/now', token)).body.data as { ventAboveC: number; text: string };
    const before = await climateNow();
    const page = await open('/dashboard');
    const card = page.getByTestId('climate-targets');
    const vent = card.locator('.climate-vent');
    await vent.waitFor();
    const shown = (await vent.textContent())!;
    const after = await climateNow();
    // Between two periods the targets ramp minute by minute, and the test runs at any hour: the card
    // shows the answer the page got, which lies between the one asked before it and the one after.
    expect(shown).toMatch(/^\d+(\.\d+)? °C$/);
    const shownC = Number.parseFloat(shown);
    expect(shownC).toBeGreaterThanOrEqual(Math.min(before.ventAboveC, after.ventAboveC));
    expect(shownC).toBeLessThanOrEqual(Math.max(before.ventAboveC, after.ventAboveC));
    expect([before.text.slice(0, 20), after.text.slice(0, 20)]).toContain((await card.getByTestId('climate-period-text').textContent())!.slice(0, 20));
    await card.getByRole('link', { name: 'Edit program' }).click();
    await page.getByTestId('climate-editor').waitFor();
  });

  it('the roof window is set to follow the vent target from its automation dialog', async () => {
    const page = await open('/dashboard/devices');
    await page.getByTestId('device-window-1').getByRole('button', { name: 'Automation Settings' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Auto Mode').check();
    await dialog.getByLabel('Follow the climate program').selectOption('vent');
    await dialog.getByText('The window opens in proportion: fully 4 °C above the vent target.').waitFor();
    await dialog.getByRole('button', { name: 'Save Settings' }).click();
    await toasts(page).filter({ hasText: 'Automation settings updated successfully' }).waitFor();
    const window = (await http().get('/api/devices/default', token)).body.data.find((d: { deviceId: string }) => d.deviceId === 'window-1');
    expect(window.automationRules).toMatchObject({ follow: 'vent', stage: 1 });
    expect(window).toHaveProperty('openPct');
  });

  it('the heater follows the heat target in 10-minute cycles, full at 2 °C under it', async () => {
    const page = await open('/dashboard/devices');
    await page.getByTestId('device-heater-1').getByRole('button', { name: 'Automation Settings' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Auto Mode').check();
    // A heater is offered only the heat target (common/climate-follow.ts).
    expect(await dialog.getByLabel('Follow the climate program').locator('option').allTextContents()).toEqual(['No: only the rules below', 'Heat below the heat target']);
    await dialog.getByLabel('Follow the climate program').selectOption('heat');
    await dialog.getByLabel('Heat in cycles of (minutes)').fill('10');
    await dialog.getByLabel('Full heat at (°C under the target)').fill('2');
    await dialog.getByRole('button', { name: 'Save Settings' }).click();
    await toasts(page).filter({ hasText: 'Automation settings updated successfully' }).waitFor();
    const heater = (await http().get('/api/devices/default', token)).body.data.find((d: { deviceId: string }) => d.deviceId === 'heater-1');
    expect(heater.automationRules).toMatchObject({ follow: 'heat', stage: 1, heatingCycleMinutes: 10, proportionalBandC: 2 });
  });

  it('a crop with a flowering stage from day 15 changes the program by the crop\'s day', async () => {
    const page = await open('/dashboard/climate', { viewport: { width: 1366, height: 900 } });
    const crop = page.getByTestId('climate-crop');
    await crop.getByLabel('Change the program by day of the crop').check();
    await crop.getByLabel('Crop', { exact: true }).fill('Tomatoes');
    // Started 20 days ago: today is day 21 (yesterday 20), inside the flowering stage.
    const start = new Date(Date.now() - 20 * 86_400_000);
    const iso = `${start.getFullYear()}-${String(start.getMonth() + 1).padStart(2, '0')}-${String(start.getDate()).padStart(2, '0')}`;
    await crop.getByLabel('Started on (day 1)').fill(iso);
    await crop.getByRole('button', { name: 'Add stage' }).click();
    const stage = page.getByTestId('stage-0');
    await stage.getByLabel('Stage name').fill('flowering');
    await stage.getByLabel('From day').fill('15');
    await stage.getByLabel('Lights on (hours a day)').fill('12');
    // The stage's night is warmer: 18 °C under 22.
    await stage.getByTestId('stages.0.periods-1').getByLabel('Heat below (°C)').fill('18');
    await stage.getByTestId('stages.0.periods-1').getByLabel('Vent above (°C)').fill('22');
    await page.getByRole('button', { name: 'Save program' }).click();
    await toasts(page).filter({ hasText: 'Climate program saved' }).waitFor();
    const stored = (await http().get('/api/climate/default', token)).body.data;
    expect(stored.crop).toEqual({ name: 'Tomatoes', startDate: iso });
    expect(stored.stages).toEqual([{ name: 'flowering', fromDay: 15, photoperiodHours: 12, periods: [
      { start: 'sunrise+30', heatBelowC: 21, ventAboveC: 25, humidityAbovePct: 85, rampMinutes: 60 },
      { start: 'sunset', heatBelowC: 18, ventAboveC: 22, humidityAbovePct: null, rampMinutes: 60 },
    ] }]);
    // Until today's first period (sunrise+30) the night period placed on yesterday, day 20, is in force.
    const now = (await http().get('/api/climate/default/now', token)).body.data;
    const day = Date.now() < Date.parse(now.sun.sunrise) + 30 * 60_000 ? 20 : 21;
    expect(now.stage).toEqual({ name: 'flowering', day });
    await page.getByTestId('climate-period-text').getByText(new RegExp(`^flowering, day ${day}: `)).waitFor();
  });

  it('on a phone the editor fits 390 px and keeps every field reachable', async () => {
    const page = await open('/dashboard/climate', { phone: true });
    await page.getByTestId('climate-curve').locator('canvas').waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(SHOTS, 'climate-program-390.png'), fullPage: true });
  });
});

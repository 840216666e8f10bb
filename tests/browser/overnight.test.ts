// Control a grower can leave overnight, in the dashboard, done as a grower does it on the simulator:
// a drained tank locks the pump (the card says why and Turn On is disabled before anyone taps), a dead
// air sensor puts the heater on frost duty (its reason on the card) and shows as faulted on every
// screen, the control log opens from a card, the schedule editor shows today's sun times, and the
// Automation dialog speaks °F. Screenshots for a person to look at go to /work/screens/overnight/.
import { mkdirSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { getTimes } from 'suncalc';
import { httpClient, registerUser } from '../support/http.ts';
import { type Credentials, signInViaUi, toasts, useBrowserSession } from './harness.ts';

/** How long a poll of the page waits (expect.poll's default is 1 s): a loaded two-core machine renders slowly. */
const LOADED_MACHINE = { timeout: 10_000 };

const admin: Credentials = { username: 'grower', password: 'tomatoes-2026' };
const viewer: Credentials = { username: 'visitor', password: 'just-looking-1', role: 'viewer' };
const SCREENS = process.env.SCREENSHOT_DIR ?? '/work/screens/overnight';

const hhmm = (ms: number) => {
  const d = new Date(ms);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
};

describe('overnight control in the dashboard', () => {
  const session = useBrowserSession();
  let token: string;
  const http = () => httpClient(session.server.url);

  async function open(user: Credentials, path: string, phone = false): Promise<Page> {
    const page = await session.newPage({ phone });
    if (!phone) await page.setViewportSize({ width: 1366, height: 900 });
    await signInViaUi(page, user);
    await page.goto(path);
    return page;
  }

  /** The screen as the grower sees it (the viewport), or one element of it. */
  async function shoot(page: Page, name: string, locator?: ReturnType<Page['locator']>): Promise<void> {
    mkdirSync(SCREENS, { recursive: true });
    const path = `${SCREENS}/${name}.png`;
    if (locator) await locator.screenshot({ path, animations: 'disabled' });
    else await page.screenshot({ path, animations: 'disabled' });
  }

  async function device(deviceId: string) {
    return (await http().get('/api/devices/greenhouse-001', token)).body.data.find((d: { deviceId: string }) => d.deviceId === deviceId);
  }

  beforeAll(async () => {
    token = await registerUser(http(), { username: admin.username, password: admin.password });
    await registerUser(http(), { username: viewer.username, password: viewer.password, role: 'viewer' }, token);
  });

  it('opens a device control log from its card: newest first, who, action, from -> to, why; filtered by source', async () => {
    await http().post('/api/devices/fan-1/control', { action: 'on' }, token);
    await http().post('/api/devices/fan-1/control', { action: 'off' }, token);
    for (const phone of [false, true]) {
      const page = await open(admin, '/dashboard/devices', phone);
      await page.getByTestId('device-fan-1').getByRole('button', { name: 'Control log of Ventilation Fan' }).click();
      const dialog = page.getByRole('dialog', { name: 'Control log: Ventilation Fan' });
      const entries = dialog.getByTestId('control-log-entry');
      await entries.first().waitFor();
      // Newest first: the switch-off, by the grower, from ON to OFF, then the switch-on.
      await expect.poll(() => entries.count(), LOADED_MACHINE).toBeGreaterThanOrEqual(2);
      expect(await entries.nth(0).getByLabel('from ON to OFF').count()).toBe(1);
      expect(await entries.nth(0).textContent()).toContain('grower');
      expect(await entries.nth(1).getByLabel('from OFF to ON').count()).toBe(1);
      await shoot(page, `control-log-${phone ? '390' : '1366'}`);

      const filtered = page.waitForRequest((r) => r.url().includes('/api/devices/fan-1/log') && r.url().includes('source=safety'));
      await dialog.getByLabel('Source').selectOption('safety');
      await filtered;
      await dialog.getByText('No entries from safety.').waitFor();
      await dialog.getByLabel('Source').selectOption('user');
      await entries.first().waitFor();
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
    }
  });

  it('pages back through a long control log with Older entries', async () => {
    // 26 switch-ons and offs of the cooler (under its 30 switch-ons an hour): more than one page of 50.
    for (let i = 0; i < 26; i++) {
      expect((await http().post('/api/devices/cooling-1/control', { action: 'on' }, token)).status).toBe(200);
      expect((await http().post('/api/devices/cooling-1/control', { action: 'off' }, token)).status).toBe(200);
    }
    const all = (await http().get('/api/devices/cooling-1/log?limit=500', token)).body.data;
    expect(all.length).toBeGreaterThan(50);
    const page = await open(admin, '/dashboard/devices');
    await page.getByTestId('device-cooling-1').getByRole('button', { name: 'Control log of Evaporative Cooler' }).click();
    const dialog = page.getByRole('dialog', { name: 'Control log: Evaporative Cooler' });
    const entries = dialog.getByTestId('control-log-entry');
    await expect.poll(() => entries.count(), LOADED_MACHINE).toBe(50);
    const older = page.waitForRequest((r) => r.url().includes('/api/devices/cooling-1/log') && r.url().includes('before='));
    await dialog.getByRole('button', { name: 'Older entries' }).click();
    await older;
    await expect.poll(() => entries.count(), LOADED_MACHINE).toBe(all.length);
    // The oldest entry last; nothing shown twice.
    const times = await entries.locator('time').evaluateAll((els) => els.map((e) => e.getAttribute('datetime')));
    expect(times.at(-1)).toBe(all.at(-1).timestamp);
    expect(await dialog.getByRole('button', { name: 'Older entries' }).count()).toBe(0);
  });

  it('a viewer reads the log and is told why the controls are missing', async () => {
    const page = await open(viewer, '/dashboard/devices');
    await page.getByTestId('viewer-note').getByText(/Viewers have read-only access/).waitFor();
    const card = page.getByTestId('device-pump-1');
    await card.getByRole('button', { name: 'Control log of Irrigation Pump' }).waitFor();
    expect(await card.getByRole('button', { name: 'Turn On' }).count()).toBe(0);
  });

  it('a drained tank locks the pump: the reason on the card, Turn On disabled before anyone taps', async () => {
    await http().post('/api/simulator/tank', { levelCm: 2 }, token);
    await expect.poll(async () => (await device('pump-1')).locks.map((l: { kind: string }) => l.kind), { timeout: 20_000 }).toContain('dry_run');
    for (const phone of [false, true]) {
      const page = await open(admin, '/dashboard/devices', phone);
      const card = page.getByTestId('device-pump-1');
      const lock = card.getByTestId('device-locks').locator('[data-lock="dry_run"]');
      await lock.waitFor();
      expect(await lock.isVisible()).toBe(true);
      const turnOn = card.getByRole('button', { name: 'Turn On' });
      expect(await turnOn.isDisabled()).toBe(true);
      // The sentence is on the page next to the button and read out with it, not hidden in a tooltip.
      expect(await turnOn.getAttribute('aria-describedby')).toBe('device-pump-1-locks');
      await card.scrollIntoViewIfNeeded();
      await shoot(page, `locked-pump-${phone ? '390' : '1366'}`);
    }
    await http().post('/api/simulator/tank', { levelCm: 60 }, token);
    // Up to 20 s of sampling before the lock, then two pages: 18 s alone, over 30 under the full suite's load.
  }, 60_000);

  it('a dead air sensor: the heater runs its frost duty with the reason on its card, and every screen shows the fault', async () => {
    // Sample every second so the fault is declared within seconds of real time.
    await http().put('/api/settings/greenhouse-001/system', { systemSettings: { updateInterval: 1 } }, token);
    const saved = await http().post(
      '/api/devices/heater-1/automation',
      { autoMode: true, automationRules: { temperatureLow: 18, offAt: { temperatureLow: 20 } }, sensorLossAction: 'duty', sensorLossDutyPct: 30 },
      token,
    );
    expect(saved.status).toBe(200);
    await http().post('/api/simulator/faults', { sensor: 'DHT11', fault: 'silent' }, token);
    await expect
      .poll(async () => (await http().get('/api/alerts/active/greenhouse-001', token)).body.data.some((a: { alertType: string }) => a.alertType === 'SENSOR_FAULT'), { timeout: 25_000 })
      .toBe(true);

    const page = await open(admin, '/dashboard');
    await page.getByTestId('sensor-overview').getByTestId('reading-temperature').getByText('Sensor fault').waitFor();
    expect(await page.getByTestId('sensor-overview').getByTestId('reading-temperature').getByText(/^\d/).count()).toBe(0);
    await page.getByTestId('env-DHT11').first().getByText('Sensor fault').waitFor();
    expect(await page.getByTestId('environmental-status').getByText('Optimal').count()).toBe(0);
    await page.getByTestId('metric-dew-point').locator('.stat-value').getByText('---').waitFor();

    await page.getByRole('link', { name: 'Sensor Monitoring' }).click();
    await page.getByTestId('status-DHT11').getByText('fault').waitFor();
    await page.getByTestId('reading-humidity').getByText('Sensor fault').waitFor();

    await page.getByRole('link', { name: 'Device Control' }).click();
    await page.getByTestId('lost-sensors').getByText(/Air temperature & humidity: sensor fault/).waitFor();
    const heater = page.getByTestId('device-heater-1');
    await heater.getByTestId('device-reason').getByText(/duty/i).waitFor({ timeout: 20_000 });
    await heater.getByTestId('device-reason').getByText(/Safety · .* · since \d\d:\d\d/).waitFor();
    await heater.scrollIntoViewIfNeeded();
    await shoot(page, 'heater-on-duty-1366');
    const phone = await open(admin, '/dashboard/devices', true);
    await phone.getByTestId('device-heater-1').getByTestId('device-reason').getByText(/duty/i).waitFor();
    await phone.getByTestId('device-heater-1').scrollIntoViewIfNeeded();
    await shoot(phone, 'heater-on-duty-390');

    await http().post('/api/simulator/faults', { sensor: 'DHT11', fault: 'none' }, token);
    await http().post('/api/devices/heater-1/automation', { autoMode: false, sensorLossAction: 'off' }, token);
    await http().put('/api/settings/greenhouse-001/system', { systemSettings: { updateInterval: 5 } }, token);
    // 16 s alone, on real sampling intervals and two viewports: twice that when the suite loads both cores.
  }, 60_000);

  it('the schedule editor: the site from Settings, System, then "from sunrise for 16 h" with today\'s times', async () => {
    const page = await open(admin, '/dashboard/settings');
    await page.getByRole('tab', { name: 'System' }).click();
    await page.getByLabel('Latitude (°, north positive)').fill('91');
    await page.getByLabel('Longitude (°, east positive)').fill('4.9');
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await page.getByText('Latitude must be a number from -90 to 90 (north positive)').waitFor();
    await page.getByLabel('Latitude (°, north positive)').fill('52.37');
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await toasts(page).filter({ hasText: 'System settings updated successfully' }).waitFor();
    expect((await http().get('/api/settings/greenhouse-001', token)).body.data.systemSettings.site).toEqual({ latitude: 52.37, longitude: 4.9 });

    for (const phone of [false, true]) {
      const p = phone ? await open(admin, '/dashboard/devices', true) : page;
      if (!phone) await p.goto('/dashboard/devices');
      await p.getByTestId('device-light-1').getByRole('button', { name: 'Automation Settings' }).click();
      const dialog = p.getByRole('dialog', { name: 'Automation Settings' });
      await dialog.getByLabel('Auto Mode').check();
      await dialog.getByLabel('Only within a schedule').check();
      await dialog.getByLabel('Starts').selectOption('sunrise');
      await dialog.getByLabel('Ends').selectOption('duration');
      await dialog.getByLabel('Hours on').fill('16');
      const noon = new Date();
      noon.setHours(12, 0, 0, 0);
      const sunrise = getTimes(noon, 52.37, 4.9).sunrise!.getTime();
      const expected = `today ${hhmm(sunrise)}-${hhmm(sunrise + 16 * 3_600_000)}`;
      await dialog.getByTestId('schedule-today').getByText(expected).waitFor();
      await dialog.getByTestId('rule-statements').getByText(`Schedule: on ${expected}, off outside it`).waitFor();
      await shoot(p, `schedule-editor-${phone ? '390' : '1366'}`);
      if (phone) break;
      await dialog.getByRole('button', { name: 'Save Settings' }).click();
      await toasts(p).filter({ hasText: 'Automation settings updated successfully' }).waitFor();
      expect((await device('light-1')).automationRules.schedule).toEqual({ from: 'sunrise', to: 'sunrise+960' });
    }
    // Opened again, the stored window reads back as "from sunrise for 16 h".
    await page.getByTestId('device-light-1').getByRole('button', { name: 'Automation Settings' }).click();
    const dialog = page.getByRole('dialog', { name: 'Automation Settings' });
    expect(await dialog.getByLabel('Ends').inputValue()).toBe('duration');
    expect(await dialog.getByLabel('Hours on').inputValue()).toBe('16');
    // 14 s alone over two viewports: twice that when the suite loads both cores.
  }, 60_000);

  it('°F in the Automation dialog: a heating band in °F is saved in °C, and a band the wrong way round is refused', async () => {
    const page = await open(admin, '/dashboard/settings');
    await page.getByRole('tab', { name: 'Notifications' }).click();
    await page.getByRole('radio', { name: /°F/ }).check();
    await page.goto('/dashboard/devices');
    await page.getByTestId('device-heater-1').getByRole('button', { name: 'Automation Settings' }).click();
    const dialog = page.getByRole('dialog', { name: 'Automation Settings' });
    await dialog.getByLabel('Auto Mode').check();
    await dialog.getByLabel('Temperature Low (°F)', { exact: true }).fill('64.4');
    await dialog.getByLabel('Temperature Low: stop at (°F)').fill('60');
    await dialog.getByRole('button', { name: 'Save Settings' }).click();
    await dialog.getByText('Temperature Low (°F): stop at must be above the threshold (it switches on below it)').waitFor();
    await dialog.getByLabel('Temperature Low: stop at (°F)').fill('68');
    await dialog.getByTestId('rule-statements').getByText('Heat below 64.4 °F, stop at 68 °F').waitFor();
    await dialog.getByLabel('If a sensor is lost').selectOption('duty');
    await dialog.getByLabel('Duty while lost (%)').fill('25');
    await dialog.getByTestId('duty-words').getByText('On for 2.5 min of every 10 min, from the start of each cycle').waitFor();
    await dialog.getByRole('button', { name: 'Save Settings' }).click();
    await toasts(page).filter({ hasText: 'Automation settings updated successfully' }).waitFor();
    const heater = await device('heater-1');
    expect(heater).toMatchObject({ sensorLossAction: 'duty', sensorLossDutyPct: 25, automationRules: { temperatureLow: 18, offAt: { temperatureLow: 20 } } });
  });

  it("on the night the clocks go forward, today's times are the ones the gateway runs: 02:30-03:15 shows 03:00-03:15", async () => {
    // A phone in Amsterdam on 29 March 2026, when 02:00-03:00 does not happen (docs/decisions.md, "Clock changes").
    const page = await session.newPage({ timezoneId: 'Europe/Amsterdam' });
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.clock.setFixedTime(new Date('2026-03-29T07:00:00Z'));
    await signInViaUi(page, admin);
    await page.goto('/dashboard/devices');
    await page.getByTestId('device-light-1').getByRole('button', { name: 'Automation Settings' }).click();
    const dialog = page.getByRole('dialog', { name: 'Automation Settings' });
    await dialog.getByLabel('Auto Mode').check();
    await dialog.getByLabel('Only within a schedule').check();
    await dialog.getByLabel('Starts').selectOption('clock');
    await dialog.getByLabel('Start time').fill('02:30');
    await dialog.getByLabel('Ends').selectOption('clock');
    await dialog.getByLabel('End time').fill('03:15');
    // The Date constructor's 03:30 would make it "03:30-03:15 (ends the next morning)".
    await dialog.getByTestId('schedule-today').getByText('today 03:00-03:15 (the clock changes today)', { exact: true }).waitFor();
    await shoot(page, 'schedule-editor-clock-change-1366');
  });
});

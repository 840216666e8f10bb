// The Analytics screen against the real gateway: the averages are the API's, the report downloads.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { httpClient, registerUser } from '../support/http.ts';
import { seedReadings } from '../support/seed-readings.ts';
import { deviceTypeName } from '../../web/src/names.ts';
import { signInViaUi, useBrowserSession } from './harness.ts';

const user = { username: 'analyst', password: 'peppers-2026' };
const MINUTE_MS = 60_000;

describe('analytics screen', () => {
  const session = useBrowserSession();
  let token: string;

  beforeAll(async () => {
    // Hold the data still: the page and the test must read the same stats (the simulator samples every 5 s).
    session.server.gateway.sampler.stop();
    token = await registerUser(httpClient(session.server.url), user);
    const now = session.server.gateway.clock.now();
    seedReadings(session.server.gateway.database.sqlite, [
      ...Array.from({ length: 30 }, (_, i) => ({ takenAtMs: now - (i + 1) * MINUTE_MS, sensorType: 'DHT11' as const, temperatureC: 20 + i / 10, humidityPct: 60 })),
      ...Array.from({ length: 30 }, (_, i) => ({ takenAtMs: now - (i + 1) * MINUTE_MS, sensorType: 'LDR' as const, lightLux: 500 + i })),
      { takenAtMs: now - 2 * MINUTE_MS, sensorType: 'SOIL_MOISTURE', soilMoisturePct: 44.4 },
      { takenAtMs: now - 30 * 60 * MINUTE_MS, sensorType: 'DHT11', temperatureC: 5 },
    ]);
  });

  async function openAnalytics() {
    const page = await session.newPage();
    await signInViaUi(page, user);
    await page.goto('/dashboard/analytics');
    await page.getByRole('heading', { name: 'Analytics Dashboard' }).waitFor();
    return page;
  }

  it('shows the averages the stats API answers, and the empty states of a greenhouse without devices', async () => {
    const page = await openAnalytics();
    const stats = await httpClient(session.server.url).get('/api/sensors/stats/greenhouse-001?hours=24', token);
    const list: Array<Record<string, number | null>> = stats.status === 200 ? stats.body.data : [];
    const pick = (key: string) => list.map((s) => s[key]).find((v) => typeof v === 'number') ?? null;
    const expected = {
      avgTemperature: pick('avgTemperature') === null ? '---' : (pick('avgTemperature') as number).toFixed(1),
      avgHumidity: pick('avgHumidity') === null ? '---' : (pick('avgHumidity') as number).toFixed(1),
      avgLightIntensity: pick('avgLightIntensity') === null ? '---' : String(Math.round(pick('avgLightIntensity') as number)),
      avgSoilMoisture: pick('avgSoilMoisture') === null ? '---' : (pick('avgSoilMoisture') as number).toFixed(1),
    };
    for (const [key, text] of Object.entries(expected)) {
      await page.getByTestId(`average-${key}`).locator('.stat-value').filter({ hasText: text }).waitFor();
    }
    await page.getByText('Environmental Trends').waitFor();
    const deviceStats = await httpClient(session.server.url).get('/api/devices/stats/greenhouse-001', token);
    const byType: Array<{ _id: string; totalDevices: number; activeDevices: number }> = deviceStats.status === 200 ? deviceStats.body.data.byType : [];
    if (byType.length === 0) {
      await page.getByText('No device data available').first().waitFor();
    } else {
      const performance = page.getByTestId('device-performance');
      for (const t of byType) {
        // Friendly names ('LED grow light') instead of codes ('LED_LIGHT').
        const item = performance.locator('li').filter({ hasText: deviceTypeName(t._id) });
        await item.getByText(`Total: ${t.totalDevices}`).waitFor();
        await item.getByText(`Active: ${t.activeDevices}`).waitFor();
      }
      expect(await page.locator('.analytics-pie path').count()).toBe(byType.filter((t) => t.totalDevices > 0).length);
    }
    expect(await page.getByRole('combobox', { name: 'Time range' }).inputValue()).toBe('24');
  });

  it('Export Report downloads the range as CSV without a token in any URL', async () => {
    const page = await openAnalytics();
    const urls: string[] = [];
    page.on('request', (request) => urls.push(request.url()));
    await page.getByRole('combobox', { name: 'Time range' }).selectOption('1');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export Report' }).click()]);
    expect(download.suggestedFilename()).toBe('greenhouse-report-1h.csv');
    const lines = readFileSync((await download.path())!, 'utf8').trim().split('\n');
    expect(lines[0]).toBe('timestamp,sensorType,temperature,humidity,lightIntensity,soilMoisture,waterLevel,co2,pressure,rootTemperature');
    // The seeded rows of the last hour, plus whatever the simulator sampled since start.
    expect(lines.length).toBeGreaterThanOrEqual(1 + 30 + 30 + 1);
    const hourAgoMs = Date.now() - 3_600_000 - 60_000;
    for (const line of lines.slice(1)) expect(Date.parse(line.split(',')[0]!)).toBeGreaterThan(hourAgoMs);
    expect(lines.some((l) => l.includes(',SOIL_MOISTURE,,,,44.4,'))).toBe(true);
    expect(urls.some((u) => u.includes('/api/analytics/export/greenhouse-001?hours=1'))).toBe(true);
    expect(urls.some((u) => u.includes(token))).toBe(false);
  });
});

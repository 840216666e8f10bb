// History after an upgrade from a build without rollups: the gateway restarts with weeks of raw
// readings to fold, and the Sensors screen says the history is being rebuilt and how far that is,
// then draws the chart by itself once it is through (server/history/history-wait.ts).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../common/clock.ts';
import { openDatabase } from '../../server/db/open.ts';
import { HISTORY_WAIT_MS } from '../../server/history/history-wait.ts';
import { httpClient, registerUser } from '../support/http.ts';
import { type BrowserGateway, launchBrowser, newPage, releaseBrowser, signInViaUi, startGatewayForBrowser } from './harness.ts';

const grower = { username: 'upgrader', password: 'tomatoes-2026' };
const DAY_MS = 86_400_000;

/** Raw 1 Hz readings of the last `days`, written straight into `readings` as an older build left them. */
function writeRawDays(dataDir: string, untilMs: number, days: number): void {
  const database = openDatabase(dataDir);
  try {
    const insert = database.sqlite.prepare(
      `INSERT INTO readings (greenhouse_id, sensor_type, taken_at, temperature_c, humidity_pct) VALUES ('greenhouse-001', 'DHT11', ?, ?, 55)`,
    );
    database.sqlite.transaction(() => {
      for (let t = untilMs - days * DAY_MS; t < untilMs; t += 1_000) insert.run(t, 18 + ((t / 3_600_000) % 24) / 3);
    })();
  } finally {
    database.close();
  }
}

describe('history while the rollups catch up', () => {
  let server: BrowserGateway | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  it('the Sensors screen says the history is being rebuilt and how far, then draws the chart by itself', async () => {
    const clock = new ManualClock(Date.now());
    const dataDir = mkdtempSync(join(tmpdir(), 'greenhouse-upgrade-'));
    server = await startGatewayForBrowser({ restart: { dataDir, port: 0 }, clock });
    const browser = await launchBrowser();
    const { context, page } = await newPage(browser, server.url);
    try {
      await registerUser(httpClient(server.url), grower);
      await signInViaUi(page, grower);
      // The upgrade: the old build's raw readings, then the new build starts on the same port.
      const { port } = new URL(server.url);
      await server.stopKeepingData();
      writeRawDays(dataDir, clock.now() - 1_000, 20);
      const later = new ManualClock(clock.now() + 1_000);
      server = await startGatewayForBrowser({ restart: { dataDir, port: Number(port) }, clock: later });

      await page.goto('/dashboard/sensors');
      const notice = page.getByTestId('historical-data').getByTestId('unreachable-notice');
      // The history request waits HISTORY_WAIT_MS on the gateway's clock: move it on until it answers.
      for (let i = 0; i < 200 && !(await notice.isVisible()); i++) {
        later.advance(HISTORY_WAIT_MS);
        await page.waitForTimeout(50);
      }
      await notice.getByText('History is not ready yet').waitFor();
      expect(await notice.textContent()).toMatch(/History is being rebuilt from the stored readings \(\d+ % done(, about \d+ \w+ left)?\); charts return when it is through/);
      // No reload: the screen asks again by itself (every 10 s) and the chart replaces the notice.
      await page.locator('.trend-chart .u-legend').getByText('Temperature (°C)').waitFor({ timeout: 45_000 });
      expect(await notice.count()).toBe(0);
    } finally {
      await context.close();
      await releaseBrowser(browser);
    }
  }, 90_000);
});

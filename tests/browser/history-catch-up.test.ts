// History after an upgrade from a build without rollups: the gateway restarts with weeks of raw
// readings to fold, and the Sensors screen says the history is being rebuilt and how far that is,
// then draws the chart by itself once it is through (server/history/history-wait.ts).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../common/clock.ts';
import { HISTORY_WAIT_MS } from '../../server/history/history-wait.ts';
import { httpClient, registerUser } from '../support/http.ts';
import { writeRawReadings } from '../support/raw-readings.ts';
import { type BrowserGateway, launchBrowser, newPage, releaseBrowser, signInViaUi, startGatewayForBrowser } from './harness.ts';

const grower = { username: 'upgrader', password: 'tomatoes-2026' };
const DAY_MS = 86_400_000;

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
      const untilMs = clock.now() - 1_000;
      writeRawReadings(dataDir, { fromMs: untilMs - 20 * DAY_MS, untilMs, stepMs: 1_000, temperatureC: (row) => 18 + (row % 86_400) / 10_000 });
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

// History after an upgrade from a build without rollups: the gateway restarts with weeks of raw
// readings to fold, and the screens with a history chart say it is being rebuilt and how far that is,
// then draw the chart by themselves once it is through (server/history/history-wait.ts).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../common/clock.ts';
import { HISTORY_WAIT_MS } from '../../server/history/history-wait.ts';
import { httpClient, registerUser } from '../support/http.ts';
import { writeRawReadings } from '../support/raw-readings.ts';
import { POLL_INTERVAL_MS } from '../../web/src/api/queries.ts';
import { type BrowserGateway, launchBrowser, newPage, releaseBrowser, signInViaUi, startGatewayForBrowser } from './harness.ts';

const grower = { username: 'upgrader', password: 'tomatoes-2026' };
const DAY_MS = 86_400_000;

describe('history while the rollups catch up', () => {
  let server: BrowserGateway | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  it('Sensor Monitoring (its chart from before the upgrade kept) and, on a phone, Analytics say the history is being rebuilt and how far, then draw their charts by themselves', async () => {
    const clock = new ManualClock(Date.now());
    const dataDir = mkdtempSync(join(tmpdir(), 'greenhouse-upgrade-'));
    server = await startGatewayForBrowser({ restart: { dataDir, port: 0 }, clock });
    const browser = await launchBrowser();
    const desk = await newPage(browser, server.url, { viewport: { width: 1366, height: 900 } });
    const phone = await newPage(browser, server.url, { phone: true });
    try {
      await registerUser(httpClient(server.url), grower);
      // Both signed in before the upgrade: their sessions outlive the restart.
      await signInViaUi(desk.page, grower);
      await signInViaUi(phone.page, grower);
      // The desk has Sensor Monitoring open across the upgrade, with the last 24 hours loaded.
      await desk.page.goto('/dashboard/sensors');
      await desk.page.getByTestId('historical-data').locator('.chart-box').waitFor();
      await desk.page.getByText('Loading historical data...').waitFor({ state: 'detached' });
      // The dashboard asks for a chart's range again only once it is older than a poll (docs/product.md §4).
      await desk.page.waitForTimeout(POLL_INTERVAL_MS + 500);
      // The upgrade: the old build's raw readings, then the new build starts on the same port.
      const { port } = new URL(server.url);
      await server.stopKeepingData();
      const untilMs = clock.now() - 1_000;
      writeRawReadings(dataDir, { fromMs: untilMs - 20 * DAY_MS, untilMs, stepMs: 1_000, temperatureC: (row) => 18 + (row % 86_400) / 10_000 });
      const later = new ManualClock(clock.now() + 1_000);
      server = await startGatewayForBrowser({ restart: { dataDir, port: Number(port) }, clock: later });

      // The grower comes back to the desk's tab; the phone opens Analytics.
      await Promise.all([
        desk.page.evaluate(() => window.dispatchEvent(new Event('visibilitychange'))),
        phone.page.goto('/dashboard/analytics'),
      ]);
      const sensorsStale = desk.page.getByTestId('historical-data').getByTestId('history-stale-note');
      const analyticsNotice = phone.page.getByRole('heading', { name: 'Environmental Trends' }).locator('..').getByTestId('unreachable-notice');
      // A history request waits HISTORY_WAIT_MS on the gateway's clock: move it on until both answer.
      for (let i = 0; i < 200 && !((await sensorsStale.isVisible()) && (await analyticsNotice.isVisible())); i++) {
        later.advance(HISTORY_WAIT_MS);
        await desk.page.waitForTimeout(50);
      }
      const rebuilding = /History is being rebuilt from the stored readings \(\d+ % done(, about \d+ \w+ left)?\); charts return when it is through/;
      await analyticsNotice.getByText('History is not ready yet').waitFor();
      expect(await analyticsNotice.textContent()).toMatch(rebuilding);
      // The range loaded before stays on the desk's screen, which says why it is not the one asked for.
      expect(await sensorsStale.textContent()).toMatch(new RegExp(`^Showing what was loaded before\\. ${rebuilding.source}\\.$`));
      // Without averages yet, each card's '---' stays on one line of the phone's narrow card.
      const linesOfMissing = await phone.page.locator('[data-testid^="average-"] .stat-value').evaluateAll((values) =>
        values.map((value) => {
          const range = document.createRange();
          range.selectNodeContents(value);
          return `${value.textContent}: ${new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size} line(s)`;
        }),
      );
      expect(linesOfMissing).toEqual(Array(4).fill('---: 1 line(s)'));
      // No reload: each screen asks again by itself (when Retry-After says) and its chart replaces the notice.
      await desk.page.locator('.trend-chart .u-legend').getByText('Temperature (°C)').waitFor({ timeout: 70_000 });
      await phone.page.getByTestId('trends-chart').locator('.u-legend').getByText('Temperature (°C)').waitFor({ timeout: 70_000 });
      expect(await sensorsStale.count()).toBe(0);
      expect(await analyticsNotice.count()).toBe(0);
    } finally {
      await desk.context.close();
      await phone.context.close();
      await releaseBrowser(browser);
    }
  }, 180_000);
});

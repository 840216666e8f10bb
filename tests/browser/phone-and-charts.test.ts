// The phone first (390 x 844), charts that stay legible at every range and width, the °C/°F
// preference, human error messages, and the installable app's manifest and icons.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { httpClient, registerUser } from '../support/http.ts';
import { seedReadings } from '../support/seed-readings.ts';
import { launchBrowser, newPage, signInViaUi, startGatewayForBrowser, toasts, useBrowserSession } from './harness.ts';

const grower = { username: 'phoneuser', password: 'cucumbers-2026' };
const HOUR_MS = 3_600_000;
/**
 * How long a reading card may rightly show '---': a first load of the readings that fails is asked
 * again at the dashboard's next poll (POLL_INTERVAL_MS, web/src/api/queries.ts: 15 s), plus a margin.
 */
const ONE_POLL_MS = 20_000;
const SCREENS = ['/dashboard', '/dashboard/sensors', '/dashboard/devices', '/dashboard/alerts', '/dashboard/analytics', '/dashboard/settings'];

/** Records every text uPlot draws on its canvases, with its box, so axis labels can be measured. */
const RECORD_CANVAS_TEXT = () => {
  const original = CanvasRenderingContext2D.prototype.fillText;
  const drawn: Array<{ text: string; left: number; right: number; y: number }> = [];
  (window as unknown as { drawnTexts: typeof drawn }).drawnTexts = drawn;
  // uPlot clears its canvas at the start of every redraw: keep only the labels of the latest one
  // (live data moves a range that ends "now", and an older frame's labels sit at other positions).
  const clearRect = CanvasRenderingContext2D.prototype.clearRect;
  CanvasRenderingContext2D.prototype.clearRect = function (x: number, y: number, w: number, h: number) {
    if (w >= this.canvas.width && h >= this.canvas.height) drawn.length = 0;
    return clearRect.call(this, x, y, w, h);
  };
  CanvasRenderingContext2D.prototype.fillText = function (text: string, x: number, y: number, maxWidth?: number) {
    const width = this.measureText(text).width;
    const left = this.textAlign === 'center' ? x - width / 2 : this.textAlign === 'right' || this.textAlign === 'end' ? x - width : x;
    drawn.push({ text: String(text), left, right: left + width, y });
    return maxWidth === undefined ? original.call(this, text, x, y) : original.call(this, text, x, y, maxWidth);
  };
};

describe('phone first, charts, preferences', () => {
  // The shared session: 15 s steps, and a failed test prints what its pages saw (tests/browser/harness.ts).
  const session = useBrowserSession();

  async function open(width: number, path: string, options: { recordCanvas?: boolean; serviceWorker?: boolean } = {}): Promise<Page> {
    const phone = width < 600;
    const page = await session.newPage({ viewport: { width, height: phone ? 844 : 900 }, phone, serviceWorker: options.serviceWorker });
    if (options.recordCanvas) await page.context().addInitScript(RECORD_CANVAS_TEXT);
    await signInViaUi(page, grower);
    if (path !== '/dashboard') await page.goto(path);
    return page;
  }

  beforeAll(async () => {
    const { server } = session;
    await registerUser(httpClient(server.url), grower);
    // A week of hourly readings, so every range has a full time axis.
    const now = server.gateway.clock.now();
    seedReadings(
      server.gateway.database.sqlite,
      Array.from({ length: 24 * 7 }, (_, i) => ({ takenAtMs: now - (i + 1) * HOUR_MS, sensorType: 'DHT11' as const, temperatureC: 18 + (i % 24) / 3, humidityPct: 60 })),
    );
  });

  it('phone: compact header, no sideways scroll, 44 px targets, readings first, wrapping tabs', async () => {
    const page = await open(390, '/dashboard');
    await page.getByTestId('reading-temperature').waitFor();
    const header = await page.locator('header.header').boundingBox();
    expect(header!.height).toBeLessThanOrEqual(60);
    const readings = await page.getByTestId('sensor-overview').boundingBox();
    const stats = await page.getByTestId('stat-total-devices').boundingBox();
    expect(readings!.y).toBeLessThan(stats!.y);

    for (const path of SCREENS) {
      await page.goto(path);
      await page.locator('main .screen').waitFor();
      await page.waitForTimeout(300);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${path} scrolls sideways`).toBeLessThanOrEqual(0);
      const small = await page.evaluate(() =>
        [...document.querySelectorAll('main button, main select, header button, header a')]
          .filter((el) => (el as HTMLElement).offsetParent !== null && !el.classList.contains('link-button'))
          .map((el) => ({ name: el.getAttribute('aria-label') ?? el.textContent?.trim() ?? el.tagName, box: el.getBoundingClientRect() }))
          .filter(({ box }) => box.height < 44 || box.width < 44)
          .map(({ name, box }) => `${name} ${Math.round(box.width)}x${Math.round(box.height)}`),
      );
      expect(small, `${path} has touch targets under 44 px`).toEqual([]);
    }

    // Settings tabs wrap instead of scrolling sideways with no hint.
    const tabs = page.getByRole('tablist');
    expect(await tabs.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    for (const name of ['Profile', 'Notifications', 'Alert Thresholds', 'System', 'Security']) {
      const box = await page.getByRole('tab', { name }).boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    }
  });

  it('phone: each screen opens at its top, and Turn Off All is near the top of Device Control', async () => {
    const page = await open(390, '/dashboard');
    await page.getByTestId('environmental-status').waitFor();
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(200);
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('link', { name: 'Device Control' }).click();
    await page.getByRole('heading', { name: 'Device Control' }).waitFor();
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    const turnOffAll = await page.getByRole('button', { name: 'Turn Off All Devices' }).boundingBox();
    expect(turnOffAll!.y).toBeLessThan(844 * 1.5);
  });

  it('laptop: the device groups and cards use the width of the screen', async () => {
    const page = await open(1366, '/dashboard/devices');
    await page.getByTestId('device-fan-1').waitFor();
    const content = await page.locator('main .screen').boundingBox();
    const boxes = await page.locator('.device-card').evaluateAll((cards) => cards.map((c) => c.getBoundingClientRect()).map((b) => ({ x: b.x, right: b.right })));
    const used = Math.max(...boxes.map((b) => b.right)) - Math.min(...boxes.map((b) => b.x));
    expect(used).toBeGreaterThan(content!.width * 0.9);
    expect(new Set(boxes.map((b) => Math.round(b.x))).size).toBeGreaterThanOrEqual(2);
  });

  for (const width of [390, 1366]) {
    it(`time axis labels never overlap at any range (${width} px), tooltip stays inside the card`, async () => {
      const page = await open(width, '/dashboard/sensors', { recordCanvas: true });
      await page.locator('.trend-chart canvas').waitFor();
      // Every range the select offers (the spec's five and any longer ones).
      const ranges = await page.getByTestId('range-select').locator('option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
      expect(ranges.length).toBeGreaterThanOrEqual(5);
      for (const hours of ranges) {
        await page.evaluate(() => ((window as unknown as { drawnTexts: unknown[] }).drawnTexts.length = 0));
        await page.getByTestId('range-select').selectOption(hours);
        await page.waitForFunction(() => (window as unknown as { drawnTexts: unknown[] }).drawnTexts.length > 0);
        await page.locator('.chart-loading').waitFor({ state: 'detached' });
        await page.waitForTimeout(400);
        const labels = await page.evaluate(() => {
          const drawn = (window as unknown as { drawnTexts: Array<{ text: string; left: number; right: number; y: number }> }).drawnTexts;
          const time = drawn.filter((d) => /^(\d{1,2}\/\d{1,2}( \d\d:\d\d)?|\d\d:\d\d)$/.test(d.text));
          const bottom = Math.max(...time.map((d) => d.y));
          const seen = new Set<string>();
          return time
            .filter((d) => d.y === bottom)
            .filter((d) => !seen.has(`${d.text}@${Math.round(d.left)}`) && seen.add(`${d.text}@${Math.round(d.left)}`))
            .sort((a, b) => a.left - b.left);
        });
        expect(labels.length, `range ${hours} h has time labels`).toBeGreaterThanOrEqual(2);
        for (let i = 1; i < labels.length; i++) {
          expect(labels[i]!.left, `range ${hours} h: '${labels[i - 1]!.text}' and '${labels[i]!.text}' collide`).toBeGreaterThan(labels[i - 1]!.right + 2);
        }
      }
      // The tooltip at the plot's right edge stays inside the card.
      await page.locator('.trend-chart .u-over').scrollIntoViewIfNeeded();
      const over = await page.locator('.trend-chart .u-over').boundingBox();
      const tip = page.getByTestId('chart-tooltip');
      // uPlot places its cursor on mouse moves: nudge until the newest data point is under it.
      for (let i = 0; i < 20 && !(await tip.isVisible()); i++) {
        await page.mouse.move(over!.x + over!.width - 3 - (i % 2), over!.y + 20);
        await page.waitForTimeout(250);
      }
      await tip.waitFor();
      const tipBox = await tip.boundingBox();
      const card = await page.getByTestId('historical-data').boundingBox();
      expect(tipBox!.x).toBeGreaterThanOrEqual(card!.x);
      expect(tipBox!.x + tipBox!.width).toBeLessThanOrEqual(card!.x + card!.width);
      // A summary in words for screen readers.
      expect(await page.getByTestId('chart-summary').textContent()).toMatch(/Temperature \(°C\): lowest [\d.]+, highest [\d.]+, latest [\d.]+/);
    });
  }

  it('the hourly activity chart has a y axis with counts', async () => {
    const page = await open(1366, '/dashboard/analytics');
    const axis = page.getByTestId('hourly-y-axis');
    await axis.waitFor();
    const ticks = await axis.locator('text').allTextContents();
    expect(ticks.length).toBeGreaterThanOrEqual(2);
    expect(ticks[0]).toBe('0');
    expect(Number(ticks[ticks.length - 1])).toBeGreaterThan(0);
  });

  it('°F display preference applies at once to readings and chart, and is kept', async () => {
    // Hold the readings still, so both units show the same reading.
    await session.server.gateway.sampler.stop();
    const page = await open(1366, '/dashboard/settings');
    const celsius = await (async () => {
      await page.goto('/dashboard');
      // The card itself first: without it, `undefined !== '---'` would pass at once.
      await page.waitForFunction(() => {
        const value = document.querySelector('[data-testid="reading-temperature"] .stat-value');
        return value !== null && value.textContent !== '---';
      }, undefined, { timeout: ONE_POLL_MS });
      return Number(await page.getByTestId('reading-temperature').locator('.stat-value').textContent());
    })();
    await page.goto('/dashboard/settings');
    await page.getByRole('tab', { name: 'Notifications' }).click();
    await page.getByLabel('Fahrenheit (°F)').check();
    await page.getByRole('link', { name: 'Overview' }).click();
    await page.getByTestId('reading-temperature').getByText('Temperature (°F)').waitFor();
    // The label follows the preference at once; the value may still be loading ('---'), as above.
    await page.waitForFunction(() => {
      const value = document.querySelector('[data-testid="reading-temperature"] .stat-value');
      return value !== null && value.textContent !== '---';
    }, undefined, { timeout: ONE_POLL_MS });
    const fahrenheit = Number(await page.getByTestId('reading-temperature').locator('.stat-value').textContent());
    // Both shown to one decimal: the converted value may differ by the rounding of the Celsius one.
    expect(Math.abs(fahrenheit - ((celsius * 9) / 5 + 32))).toBeLessThanOrEqual(0.15);
    await page.reload();
    await page.getByTestId('reading-temperature').getByText('Temperature (°F)').waitFor();
    await page.goto('/dashboard/sensors');
    await page.locator('.u-legend').getByText('Temperature (°F)').waitFor();
    // Room for a reload of the readings at the next poll, twice (ONE_POLL_MS).
  }, 60_000);

  it('says what is wrong in words: a short password, an unknown username pattern', async () => {
    const page = await session.newPage();
    await page.goto('/login');
    await page.getByRole('button', { name: "Don't have an account? Sign up" }).click();
    await page.getByLabel('Username').fill('new grower');
    await page.getByLabel('Email').fill('new@example.test');
    await page.getByLabel('Password', { exact: true }).fill('long-enough-1');
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await toasts(page).filter({ hasText: 'Username may use only letters, digits, dots, dashes and underscores' }).waitFor();
    await page.getByLabel('Username').fill('newgrower');
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByRole('button', { name: 'Sign Up' }).click();
    // The form itself refuses a password under 10 characters (minLength), before any request.
    const password = page.getByLabel('Password', { exact: true });
    expect(await password.evaluate((input: HTMLInputElement) => input.validity.tooShort)).toBe(true);
    expect(await password.evaluate((input: HTMLInputElement) => input.validationMessage)).not.toBe('');
    expect(await toasts(page).filter({ hasText: 'must NOT' }).count()).toBe(0);
  });

  it('friendly names instead of codes on the sensor cards and device lists', async () => {
    const page = await open(1366, '/dashboard/sensors');
    await page.getByTestId('sensor-detail-SOIL_MOISTURE').getByRole('heading', { name: 'Soil moisture probe' }).waitFor();
    await page.getByTestId('sensor-detail-DHT11').getByRole('heading', { name: 'Air temperature & humidity' }).waitFor();
    await page.goto('/dashboard');
    await page.getByTestId('device-status-widget').getByText('Ventilation fan').first().waitFor();
  });

  it('installable: manifest with name, 192 and 512 px icons, theme colour, standalone; a service worker', async () => {
    const page = await open(1366, '/dashboard', { serviceWorker: true });
    const manifest = await page.evaluate(async () => {
      const href = document.querySelector('link[rel="manifest"]')!.getAttribute('href')!;
      return (await fetch(href)).json();
    });
    expect(manifest).toMatchObject({ name: 'Greenhouse Dashboard', display: 'standalone', theme_color: '#15803d' });
    for (const size of [192, 512]) {
      const icon = manifest.icons.find((i: { sizes: string }) => i.sizes === `${size}x${size}`);
      const dims = await page.evaluate(async (src: string) => {
        const bitmap = await createImageBitmap(await (await fetch(src)).blob());
        return [bitmap.width, bitmap.height];
      }, icon.src);
      expect(dims).toEqual([size, size]);
    }
    expect(await page.evaluate(() => document.querySelector('meta[name="theme-color"]')?.getAttribute('content'))).toBe('#15803d');
    const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
    expect(new URL(scope).pathname).toBe('/');
  });
});

describe('offline shell', () => {
  it('with the gateway gone, a reload still opens the dashboard, which says the gateway is unreachable', async () => {
    let server = await startGatewayForBrowser();
    const { context, page } = await newPage(await launchBrowser(), server.url, { serviceWorker: true });
    try {
      await registerUser(httpClient(server.url), grower);
      await signInViaUi(page, grower);
      await page.evaluate(async () => {
        await navigator.serviceWorker.ready;
      });
      // Let the worker control the page, and cache every screen's code.
      await page.reload();
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
      await page.getByTestId('reading-temperature').waitFor();
      const { port } = new URL(server.url);
      const dataDir = server.dataDir;
      await server.stopKeepingData();
      await page.reload();
      await page.getByTestId('gateway-unreachable').getByText(/Gateway unreachable since \d\d:\d\d/).waitFor();
      server = await startGatewayForBrowser({ restart: { dataDir, port: Number(port) } });
    } finally {
      await context.close();
      await server.stop();
    }
  }, 60_000);
});

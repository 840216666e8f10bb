// The browser the tests drive: Chromium's own address-bar pop-up is off (tests/support/chromium-flags.ts),
// and Playwright's disabled features stay disabled beside it.
import { afterAll, describe, expect, it } from 'vitest';
import { chromium } from 'playwright-core';
import { chromiumLaunchArgs, CHROMIUM_PATH, CHROMIUM_UNUSED_FEATURES } from '../support/chromium-flags.ts';
import { launchBrowser, releaseBrowser } from './harness.ts';

describe("the tests' Chromium", () => {
  const opened: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const close of opened) await close();
  });

  it('opens a page without loading the address-bar pop-up of its window', async () => {
    const browser = await launchBrowser();
    opened.push(() => releaseBrowser(browser));
    const context = await browser.newContext();
    await (await context.newPage()).goto('about:blank');
    const cdp = await browser.newBrowserCDPSession();
    const { targetInfos } = (await cdp.send('Target.getTargets')) as { targetInfos: Array<{ type: string; url: string }> };
    await cdp.detach();
    expect(targetInfos.filter((target) => target.url.startsWith('chrome://omnibox-popup'))).toEqual([]);
    expect(targetInfos.some((target) => target.type === 'page' && target.url === 'about:blank')).toBe(true);
  });

  it("is started with one --disable-features holding Playwright's list and ours", async () => {
    const server = await chromium.launchServer({ executablePath: CHROMIUM_PATH, args: await chromiumLaunchArgs() });
    opened.push(() => server.close());
    const switches = server.process().spawnargs.filter((arg) => arg.startsWith('--disable-features='));
    expect(switches.length).toBeGreaterThanOrEqual(2); // Playwright's, then ours
    const lastNames = new Set(switches.at(-1)!.slice('--disable-features='.length).split(','));
    for (const name of switches.flatMap((arg) => arg.slice('--disable-features='.length).split(','))) expect(lastNames).toContain(name);
    for (const name of CHROMIUM_UNUSED_FEATURES) expect(lastNames).toContain(name);
  });
});

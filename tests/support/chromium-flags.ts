import { chromium } from 'playwright-core';

/**
 * Debian's Chromium as the browser tests and the Lighthouse bench start it (docs/decisions.md
 * "Toolchain facts"): as root it needs --no-sandbox; the rest keep it off this machine's closed network.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/**
 * Parts of Chromium's own window that no test looks at. `--headless` runs the whole browser, so every
 * page Playwright opens is a browser window with an address bar, whose pop-up is a WebUI page that the
 * window loads into renderers of its own (chrome://omnibox-popup.top-chrome), and which kept the browser
 * process busy while the tests ran: two browser files took 60-71 s with it (the browser process 61-71
 * CPU-s) and 41-46 s without (21-29 CPU-s; docs/performance.md "The test suite: Chromium's own window").
 */
export const CHROMIUM_UNUSED_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'WebUIOmniboxFullPopup', 'PreloadTopChromeWebUI'];

const DISABLE_FEATURES = '--disable-features=';

/**
 * `args` with one --disable-features naming every feature disabled by `defaultArgs` or `args`, and
 * `features`. Chromium keeps only the last --disable-features on its command line, and Playwright
 * puts its own list (features that make automation flaky) before the caller's arguments: a second
 * switch would silently switch Playwright's features back on.
 */
export function withDisabledFeatures(defaultArgs: readonly string[], args: readonly string[], features: readonly string[]): string[] {
  const listed = [...defaultArgs, ...args]
    .filter((arg) => arg.startsWith(DISABLE_FEATURES))
    .flatMap((arg) => arg.slice(DISABLE_FEATURES.length).split(','));
  const all = [...new Set([...listed, ...features])].filter((feature) => feature !== '');
  return [...args.filter((arg) => !arg.startsWith(DISABLE_FEATURES)), `${DISABLE_FEATURES}${all.join(',')}`];
}

let playwrightArgs: Promise<string[]> | undefined;

/**
 * The switches Playwright itself starts Chromium with, read from the command line of one launch (a
 * second of wall time, once per test worker): Playwright does not export them.
 */
function playwrightDefaultArgs(): Promise<string[]> {
  playwrightArgs ??= (async () => {
    const server = await chromium.launchServer({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
    try {
      return server.process().spawnargs;
    } finally {
      await server.close();
    }
  })();
  return playwrightArgs;
}

/** The browser tests' launch arguments: CHROMIUM_FLAGS, `extra`, and the unused features switched off. */
export async function chromiumLaunchArgs(extra: readonly string[] = []): Promise<string[]> {
  return withDisabledFeatures(await playwrightDefaultArgs(), [...CHROMIUM_FLAGS, ...extra], CHROMIUM_UNUSED_FEATURES);
}

// Browser-test harness: the real gateway in-process (real HTTP, SQLite, websocket) serving the BUILT
// dashboard from web/dist, driven by Debian's Chromium through playwright-core.
// `npm test` builds first; run `npm run build` before running these files alone.
// Each test file starts one gateway and one browser in beforeAll (two cores: keep it cheap) and opens
// a fresh browser context per test, so localStorage never leaks between tests.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import Value from 'typebox/value';
import { ConfigSchema, type Config } from '../../server/config/schema.ts';
import { createGateway, type Gateway, type GatewayOptions } from '../../server/gateway.ts';
import { chromiumLaunchArgs, CHROMIUM_PATH } from '../support/chromium-flags.ts';
import { rememberDataDir, setupCodeOf } from '../support/setup-code.ts';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const WEB_DIST = join(REPO_ROOT, 'web', 'dist');

export interface BrowserGateway {
  gateway: Gateway;
  /** http://127.0.0.1:<port> */
  url: string;
  dataDir: string;
  stop(): Promise<void>;
  /** Stop the gateway but keep its data dir, to start it again on the same port (an outage, then a restart). */
  stopKeepingData(): Promise<void>;
}

export interface GatewayForBrowserOptions {
  /** Seed the demo admin and show its hint on the login screen (GREENHOUSE_DEMO). Default off. */
  demo?: boolean;
  /** Fake hardware behind the driver interfaces (default: the simulator). */
  hardware?: GatewayOptions['hardware'];
  /** Restart an earlier gateway: its data dir and port (default: a fresh temp dir, an ephemeral port). */
  restart?: { dataDir: string; port: number };
  /** Other config values (an MQTT broker, for one). */
  overrides?: GatewayOptions['overrides'];
  /** A ManualClock, to move the gateway's time (sampling, faults) without waiting. */
  clock?: GatewayOptions['clock'];
}

const BROWSER_TEST_LIMITS: Config['limits'] = { ...(Value.Default(ConfigSchema, {}) as Config).limits, connectionsPerAddress: 1024 };

export async function startGatewayForBrowser(options: GatewayForBrowserOptions = {}): Promise<BrowserGateway> {
  if (!existsSync(join(WEB_DIST, 'index.html'))) {
    throw new Error('web/dist is missing: run `npm run build` before the browser tests (npm test does).');
  }
  const dataDir = options.restart?.dataDir ?? mkdtempSync(join(tmpdir(), 'greenhouse-browser-'));
  const gateway = await createGateway({
    env: {},
    // Every page of a test file comes from 127.0.0.1 and Chromium keeps idle sockets open, so the
    // per-address connection cap (a guard against slow-header floods from one LAN host) is raised here.
    overrides: { limits: { ...BROWSER_TEST_LIMITS }, ...options.overrides, dataDir, port: options.restart?.port ?? 0, host: '127.0.0.1', demo: options.demo ?? false },
    webRoot: WEB_DIST,
    hardware: options.hardware,
    clock: options.clock,
  });
  await gateway.start();
  rememberDataDir(gateway.url, dataDir);
  let stopped = false;
  return {
    gateway,
    url: gateway.url,
    dataDir,
    async stop() {
      if (!stopped) await gateway.stop();
      stopped = true;
      rmSync(dataDir, { recursive: true, force: true });
    },
    async stopKeepingData() {
      await gateway.stop();
      stopped = true;
    },
  };
}


let workerBrowser: Promise<Browser> | undefined;

/**
 * The test worker's Chromium, launched by its first browser file and shared by the files it runs after
 * (vitest.config.ts: a worker runs files one after another). A launch is about 2 s of CPU on a machine
 * whose two cores the suite keeps busy; files stay apart through their own contexts (storage, service
 * workers, permissions), and each file ends by closing them (releaseBrowser). Playwright kills the
 * browser when the worker exits.
 */
export async function launchBrowser(): Promise<Browser> {
  const running = await workerBrowser?.catch(() => undefined);
  if (running?.isConnected()) return running;
  workerBrowser = chromiumLaunchArgs().then((args) => chromium.launch({ executablePath: CHROMIUM_PATH, args }));
  return workerBrowser;
}

/** Ends a file's use of the worker's Chromium: closes every context the file left open. */
export async function releaseBrowser(browser: Browser | undefined): Promise<void> {
  if (!browser?.isConnected()) return;
  await closeAll(browser.contexts());
}

/** Phone-sized (390 px, touch), or a viewport of its own (screenshots at a given width). */
export interface PageOptions {
  phone?: boolean;
  viewport?: { width: number; height: number };
  /**
   * Let the dashboard register its service worker (web/public/sw.js). Off unless a test is about it:
   * in every fresh context the worker installs and stores a copy of each script the app loads, work of
   * the browser's own process that took about an eighth of the browser tests' CPU.
   */
  serviceWorker?: boolean;
  /** The browser's time zone (IANA name), as a phone in that zone has it; the machine's when absent. */
  timezoneId?: string;
}

/** A fresh context (empty localStorage) and page, phone-sized when asked. */
export async function newPage(browser: Browser, baseURL: string, options: PageOptions = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL,
    viewport: options.viewport ?? (options.phone ? { width: 390, height: 844 } : { width: 1280, height: 800 }),
    hasTouch: options.phone ?? false,
    serviceWorkers: options.serviceWorker ? 'allow' : 'block',
    ...(options.timezoneId ? { timezoneId: options.timezoneId } : {}),
  });
  // Fail a step within 15 s with the locator named, rather than hitting the 30 s test timeout. (A
  // shared two-core machine running two browser files at once once took over 10 s to reload a page.)
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  // Surface page errors in the test output: a React crash otherwise looks like a missing element.
  page.on('pageerror', (err) => console.error('[page error]', err.message));
  // The dashboard asks with its own dialogs; a native one is a regression, and dismissing it says no.
  page.on('dialog', (dialog) => {
    console.error('[native dialog]', dialog.message());
    void dialog.dismiss();
  });
  return { context, page };
}

/** One gateway and one Chromium for a test file, and fresh pages on them. */
export interface BrowserSession {
  /** The file's gateway (started in the session's beforeAll). */
  readonly server: BrowserGateway;
  readonly browser: Browser;
  /**
   * A page in a fresh context (empty localStorage), phone-sized when asked; closed when the test that
   * opened it ends, or after the file when opened in its beforeAll.
   */
  newPage(options?: PageOptions): Promise<Page>;
}

/**
 * The set-up every browser test file shares: starts the gateway and takes the worker's Chromium in a
 * beforeAll, closes the pages a test opened when that test ends, and in an afterAll closes the pages
 * opened in the file's beforeAll (releaseBrowser) and stops the gateway. Call it first in the describe,
 * so the file's own beforeAll (accounts, seeded data) runs once both are up.
 */
export function useBrowserSession(options: GatewayForBrowserOptions = {}): BrowserSession {
  let server: BrowserGateway | undefined;
  let browser: Browser | undefined;
  /**
   * Contexts opened by the running test: closed when it ends. Those opened in the file's beforeAll stay
   * until its afterAll (later tests may use them), where releaseBrowser closes them.
   */
  const testContexts: BrowserContext[] = [];
  /** What the running test's pages saw, printed if it fails (before its pages are closed). */
  const testReports: PageReport[] = [];
  let inTest = false;
  const started = <T>(value: T | undefined, name: string): T => {
    if (value === undefined) throw new Error(`the browser session's ${name} is used before its beforeAll ran`);
    return value;
  };
  beforeAll(async () => {
    [server, browser] = await Promise.all([startGatewayForBrowser(options), launchBrowser()]);
  });
  beforeEach(() => {
    inTest = true;
  });
  // A page left open keeps rendering every websocket update, chart and animation for the rest of the
  // file: with the machine's two cores shared by two files at once, that was time taken from the tests.
  afterEach(async ({ task }) => {
    inTest = false;
    const reports = testReports.splice(0);
    if (task.result?.state === 'fail') for (const report of reports) await report();
    await closeAll(testContexts);
  });
  afterAll(async () => {
    await releaseBrowser(browser);
    await server?.stop();
  });
  return {
    get server() {
      return started(server, 'gateway');
    },
    get browser() {
      return started(browser, 'browser');
    },
    async newPage(pageOptions = {}) {
      const { context, page } = await newPage(started(browser, 'browser'), started(server, 'gateway').url, pageOptions);
      if (inTest) {
        testContexts.push(context);
        testReports.push(followPage(page));
      }
      return page;
    },
  };
}

/** Closes the contexts (and their pages) and empties the list. */
export async function closeAll(contexts: BrowserContext[]): Promise<void> {
  for (const context of contexts.splice(0)) await context.close().catch(() => {});
}

/** Prints what a page saw; called when its test failed, before the page is closed. */
type PageReport = () => Promise<void>;

/**
 * Follows a test's page so that, if the test fails, it can say where the page was and what it saw go
 * wrong (the last failed or refused requests, console errors, the visible text): a step that timed out
 * says only what it waited for.
 */
function followPage(page: Page): PageReport {
  const events: string[] = [];
  const remember = (line: string) => {
    events.push(`${new Date().toISOString().slice(11, 23)} ${line}`);
    if (events.length > 30) events.shift();
  };
  page.on('requestfailed', (request) => remember(`failed ${request.method()} ${request.url()}: ${request.failure()?.errorText}`));
  page.on('response', (response) => {
    if (response.status() >= 400) remember(`${response.status()} ${response.request().method()} ${response.url()}`);
  });
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') remember(`console ${message.type()}: ${message.text().slice(0, 300)}`);
  });
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) remember(`navigated to ${frame.url()}`);
  });
  return async () => {
    const text = page.isClosed() ? '(page closed)' : await page.locator('body').innerText({ timeout: 2_000 }).catch((err: Error) => `(no text: ${err.message})`);
    console.error(`[failed test's page] ${page.isClosed() ? '' : page.url()}\n${events.join('\n')}\n--- visible text ---\n${text.slice(0, 600)}`);
  };
}

export interface Credentials {
  username: string;
  password: string;
  email?: string;
  role?: 'operator' | 'admin' | 'viewer';
}

/**
 * Sign up through the login screen's sign-up form and wait for the dashboard. On a fresh gateway the
 * form asks for the setup code, which this reads from the data dir as the owner would (the account then
 * is the administrator); later sign-ups pick a role and wait for approval (PendingScreen).
 */
export async function signUpViaUi(page: Page, user: Credentials): Promise<void> {
  await page.goto('/login');
  const setupCode = setupCodeOf(new URL(page.url()).origin);
  await page.getByRole('button', { name: "Don't have an account? Sign up" }).click();
  await page.getByLabel('Username').fill(user.username);
  await page.getByLabel('Email').fill(user.email ?? `${user.username}@example.test`);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  if (setupCode) await page.getByLabel('Setup code').fill(setupCode);
  else await page.getByLabel('Role').selectOption(user.role ?? 'operator');
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await page.waitForURL('**/dashboard');
}

/** Sign in through the login screen and wait for the dashboard. */
export async function signInViaUi(page: Page, user: Credentials): Promise<void> {
  await page.goto('/login');
  await fillSignIn(page, user);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL('**/dashboard');
}

export async function fillSignIn(page: Page, user: Credentials): Promise<void> {
  await page.getByLabel('Username').fill(user.username);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
}

/** The visible toast texts (top-right). */
export function toasts(page: Page) {
  return page.getByTestId('toast');
}

/**
 * Answers the app's confirmation dialog (never the browser's native confirm(), which the dashboard does
 * not use) and returns its question, word for word.
 */
export async function answerConfirm(page: Page, answer: 'confirm' | 'cancel'): Promise<string> {
  const dialog = page.getByRole('alertdialog');
  await dialog.waitFor();
  const question = (await dialog.locator('#confirm-message').textContent()) ?? '';
  if (answer === 'cancel') await dialog.getByRole('button', { name: 'Cancel' }).click();
  else await dialog.locator('.dialog-actions button').last().click();
  await dialog.waitFor({ state: 'detached' });
  return question;
}

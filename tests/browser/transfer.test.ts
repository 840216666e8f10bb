// What a phone downloads: the dashboard's JavaScript arrives compressed, the sign-in page loads only
// what signing in needs (the shell is a chunk of its own), and the first screen after signing in stays
// within 120 KB of JavaScript on the wire (docs/performance.md).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page, Response } from 'playwright-core';
import { signInViaUi, signUpViaUi, useBrowserSession } from './harness.ts';

const ASSETS = join(import.meta.dirname, '..', '..', 'web', 'dist', 'assets');

const user = { username: 'picker', password: 'courgettes-2026' };
const FIRST_SCREEN_JS_BYTES = 120 * 1024;

interface Script {
  url: string;
  encoding: string | undefined;
  wireBytes: number;
}

/**
 * Records every JavaScript response of the page with its encoding and its size on the wire; `settled()`
 * resolves with them once each one's size is known (Chromium reports sizes after the response event).
 */
function recordScripts(page: Page): { settled(): Promise<Script[]> } {
  const scripts: Array<Promise<Script>> = [];
  page.on('response', (response: Response) => {
    if (!response.url().endsWith('.js')) return;
    scripts.push(
      response
        .request()
        .sizes()
        .then((sizes) => ({ url: new URL(response.url()).pathname, encoding: response.headers()['content-encoding'], wireBytes: sizes.responseBodySize })),
    );
  });
  return { settled: () => Promise.all(scripts) };
}

/** The script files a built chunk loads with its dynamic imports (Vite's `__vite__mapDeps` list). */
function dynamicImportsOf(chunkPrefix: string): string[] {
  const file = readdirSync(ASSETS).find((name) => name.startsWith(`${chunkPrefix}-`) && name.endsWith('.js'));
  if (!file) throw new Error(`no ${chunkPrefix} chunk in web/dist/assets`);
  const list = /__vite__mapDeps=.*?\[([^\]]*)\]/.exec(readFileSync(join(ASSETS, file), 'utf8'))?.[1];
  if (!list) throw new Error(`${file} names no dynamic imports (has the build's format changed?)`);
  return [...list.matchAll(/"(?:\.\/)?(?:assets\/)?([^"]+\.js)"/g)].map((m) => `/assets/${m[1]}`);
}

/** The scripts index.html names: the entry, and the modules it preloads. */
function scriptsOfIndexHtml(): string[] {
  const html = readFileSync(join(ASSETS, '..', 'index.html'), 'utf8');
  return [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]!);
}

describe('what the dashboard transfers', () => {
  const session = useBrowserSession();

  beforeAll(async () => {
    const page = await session.newPage();
    await signUpViaUi(page, user);
    await page.context().close();
  });

  it('sends the sign-in page its scripts compressed, without the dashboard shell', async () => {
    const page = await session.newPage({ phone: true });
    const recorded = recordScripts(page);
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign In' }).waitFor();
    await page.waitForLoadState('networkidle');
    const scripts = await recorded.settled();
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) expect(script.encoding, script.url).toBe('br');
    expect(scripts.map((s) => s.url).filter((url) => /DashboardShell|Screen-/.test(url))).toEqual([]);
  });

  it('keeps the first screen after signing in within 120 KB of JavaScript on the wire', async () => {
    const page = await session.newPage({ phone: true });
    const recorded = recordScripts(page);
    await signInViaUi(page, user);
    await page.getByTestId('connection-status').waitFor();
    await page.waitForLoadState('networkidle');
    const scripts = await recorded.settled();
    expect(scripts.some((s) => s.url.includes('DashboardShell'))).toBe(true);
    // Once the first screen is up, the shell fetches the other screens in the background
    // (usePrefetchScreens, web/src/shell/DashboardRoutes.tsx): the scripts the shell imports
    // dynamically and the entry does not need. They are not the first screen's.
    const firstScreenNeeds = new Set([...scriptsOfIndexHtml(), ...dynamicImportsOf('index')]);
    const prefetched = new Set(dynamicImportsOf('DashboardShell').filter((url) => !firstScreenNeeds.has(url)));
    expect(prefetched.size).toBeGreaterThan(0);
    const firstScreen = scripts.filter((s) => !prefetched.has(s.url));
    const total = firstScreen.reduce((sum, s) => sum + s.wireBytes, 0);
    expect(total, firstScreen.map((s) => `${s.url} ${s.wireBytes}`).join('\n')).toBeLessThanOrEqual(FIRST_SCREEN_JS_BYTES);
  });
});

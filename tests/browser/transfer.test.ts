// What a phone downloads: the dashboard's JavaScript arrives compressed, the sign-in page loads only
// what signing in needs (the shell is a chunk of its own), and the first screen after signing in stays
// within 120 KB of JavaScript on the wire (docs/performance.md).
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page, Response } from 'playwright-core';
import { signInViaUi, signUpViaUi, useBrowserSession } from './harness.ts';

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
    const total = scripts.reduce((sum, s) => sum + s.wireBytes, 0);
    expect(scripts.some((s) => s.url.includes('DashboardShell'))).toBe(true);
    expect(total, scripts.map((s) => `${s.url} ${s.wireBytes}`).join('\n')).toBeLessThanOrEqual(FIRST_SCREEN_JS_BYTES);
  });
});

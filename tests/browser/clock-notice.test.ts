// The shell's notice while the gateway's clock is not synchronised, and its going once it is.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { signUpViaUi, useBrowserSession } from './harness.ts';

const dir = mkdtempSync(join(tmpdir(), 'clock-notice-'));
const marker = join(dir, 'synchronized');

describe('clock notice', () => {
  const session = useBrowserSession({ overrides: { clockSync: { mode: 'check', markerPath: marker } } });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('says the clock is not synchronised and that schedules hold their devices off, until timesyncd has set it', async () => {
    const page = await session.newPage();
    await signUpViaUi(page, { username: 'keeper', password: 'cucumbers-2026' });
    const notice = page.getByTestId('clock-notice');
    await notice.getByText('Clock not synchronised').waitFor();
    expect(await notice.textContent()).toContain('Scheduled devices stay off until it has.');
    writeFileSync(marker, '');
    session.server.gateway.clockSync.poll();
    await page.reload();
    await page.getByText('Sensor Overview').waitFor();
    expect(await page.getByTestId('clock-notice').count()).toBe(0);
  });
});

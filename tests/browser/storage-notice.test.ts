// The shell's notice while the gateway's database refuses writes (a full or failing SD card), and its
// going once writes are taken again (docs/storage.md, "When the storage refuses a write").
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { signInViaUi, signUpViaUi, useBrowserSession } from './harness.ts';

const SCREENS = process.env.SCREENSHOT_DIR ?? '/work/screens/overnight';

describe('storage notice', () => {
  const session = useBrowserSession();

  it('says nothing is being recorded while the readings cannot be committed, on every screen, until they can', async () => {
    mkdirSync(SCREENS, { recursive: true });
    const page = await session.newPage({ phone: true });
    await signUpViaUi(page, { username: 'keeper', password: 'cucumbers-2026' });
    await page.getByText('Sensor Overview').waitFor();
    expect(await page.getByTestId('storage-notice').count()).toBe(0);

    const desk = await session.newPage({ viewport: { width: 1366, height: 900 } });
    await signInViaUi(desk, { username: 'keeper', password: 'cucumbers-2026' });
    await desk.getByText('Sensor Overview').waitFor();

    const gateway = session.server.gateway;
    gateway.database.sqlite.pragma('query_only = 1');
    try {
      gateway.batches.insertTick(gateway.config.greenhouseId, [{ sensorType: 'LDR', takenAtMs: gateway.clock.now(), lightLux: 900 }]);
      gateway.batches.flush();
      await page.goto('/dashboard/devices');
      const notice = page.getByTestId('storage-notice');
      await notice.getByText('Nothing is being recorded').waitFor();
      expect(await notice.textContent()).toContain("The gateway's database refuses writes (writes refused: attempt to write a readonly database)");
      expect(await notice.textContent()).toContain('Devices still switch and their limits still act');
      await page.screenshot({ path: join(SCREENS, 'storage-notice-390.png') });
      // The same on a laptop, on the Overview (signed in before: a sign-in is a write).
      await desk.reload();
      await desk.getByTestId('storage-notice').getByText('Nothing is being recorded').waitFor();
      await desk.screenshot({ path: join(SCREENS, 'storage-notice-1366.png') });
      await desk.context().close();
    } finally {
      gateway.database.sqlite.pragma('query_only = 0');
    }
    gateway.batches.flush();
    await page.reload();
    await page.getByRole('heading', { name: 'Device Control' }).waitFor();
    expect(await page.getByTestId('storage-notice').count()).toBe(0);
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { expect, it } from 'vitest';
import { ManualClock } from '../../../../common/clock.ts';
import { EventBus, type GatewayEvents } from '../../../../server/events/bus.ts';
import { STORAGE_CHECK_EVERY_MS, StorageWatch } from '../../../../server/lifecycle/storage-watch.ts';

it('reads the real free space of the data dir at start and every five minutes, and stops', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'storage-watch-'));
  const clock = new ManualClock();
  const bus = new EventBus(pino({ level: 'silent' }));
  const seen: Array<GatewayEvents['storageChecked']> = [];
  bus.on('storageChecked', 'test', (event) => seen.push(event));
  const watch = new StorageWatch({ dir, clock, bus, logger: pino({ level: 'silent' }) });
  try {
    watch.start();
    await expect.poll(() => seen.length).toBe(1);
    expect(seen[0]).toMatchObject({ dir });
    expect(seen[0]!.freeBytes).toBeGreaterThan(0);
    expect(seen[0]!.totalBytes).toBeGreaterThanOrEqual(seen[0]!.freeBytes);
    expect(clock.pendingTimers()).toBe(1);
    clock.advance(STORAGE_CHECK_EVERY_MS);
    await expect.poll(() => seen.length).toBe(2);
    watch.stop();
    expect(clock.pendingTimers()).toBe(0);
  } finally {
    watch.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

it('a disk it cannot read is logged and read again later, never thrown', async () => {
  const clock = new ManualClock();
  const bus = new EventBus(pino({ level: 'silent' }));
  const warnings: unknown[] = [];
  const logger = pino({ level: 'warn' }, { write: (line: string) => warnings.push(JSON.parse(line)) });
  const watch = new StorageWatch({ dir: '/nowhere', clock, bus, logger, statfs: () => Promise.reject(new Error('ENOENT: no such file or directory')) });
  watch.start();
  await expect.poll(() => warnings.length).toBe(1);
  expect(warnings[0]).toMatchObject({ msg: 'could not read the free space of the data disk', dir: '/nowhere' });
  expect(clock.pendingTimers()).toBe(1);
  watch.stop();
});

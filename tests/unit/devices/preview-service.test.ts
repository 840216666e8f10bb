// PreviewService's admission and worker starts, with a stand-in for the worker thread (the real worker
// is tested in tests/integration/rule-preview-worker.test.ts).
import { EventEmitter } from 'node:events';
import type { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../common/clock.ts';
import { EMPTY_RULES, type AutomationPreview, type Device } from '../../../server/contract/device.ts';
import { DEFAULT_DEVICE_SETTINGS, DEFAULT_SYSTEM_SETTINGS } from '../../../server/contract/settings.ts';
import type { DevicesRepo } from '../../../server/devices/devices-repo.ts';
import { PreviewService } from '../../../server/devices/rules/preview-service.ts';
import type { SettingsService } from '../../../server/settings/settings-service.ts';
import { turnCounter } from '../../support/turn-counter.ts';

const FAN = { deviceId: 'fan-1', deviceType: 'FAN', powerConsumption: 40, sensorLossAction: 'off', sensorLossDutyPct: 0, flowLitresPerMinute: null, automationRules: EMPTY_RULES } as unknown as Device;

class FakeWorker extends EventEmitter {
  terminated = false;
  terminate(): Promise<number> {
    this.terminated = true;
    return Promise.resolve(1);
  }
}

let turns: ReturnType<typeof turnCounter>;
afterEach(() => turns?.stop());

function serviceWithFakeWorkers(limits = { perAccount: 2, total: 3 }) {
  const started: Array<{ turn: number; worker: FakeWorker }> = [];
  const service = new PreviewService({
    repo: { find: (id: string) => (id === FAN.deviceId ? FAN : null) } as unknown as DevicesRepo,
    settings: { get: () => ({ deviceSettings: DEFAULT_DEVICE_SETTINGS, systemSettings: DEFAULT_SYSTEM_SETTINGS }) } as unknown as SettingsService,
    clock: new ManualClock(Date.UTC(2026, 5, 8, 12)),
    site: () => null,
    checkSchedule: () => undefined,
    dbPath: '/nowhere/greenhouse.db',
    greenhouseId: 'greenhouse-001',
    limits,
    startWorker: () => {
      const worker = new FakeWorker();
      started.push({ turn: turns.now(), worker });
      return worker as unknown as Worker;
    },
  });
  return { service, started };
}

const request = (accountId: number, signal = new AbortController().signal) => ({ deviceId: FAN.deviceId, changes: { temperatureHigh: 24 }, hours: 24, accountId, signal });
const answer = { switches: 0 } as unknown as AutomationPreview;

describe('rule preview workers', () => {
  it('starts the workers of previews asked at once in turns of their own, each answering its client', async () => {
    turns = turnCounter();
    const { service, started } = serviceWithFakeWorkers();
    const asked = turns.now();
    const previews = [service.preview(request(1)), service.preview(request(2))];
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(started).toHaveLength(2);
    expect(started[0]!.turn).toBeGreaterThan(asked);
    expect(started[1]!.turn).toBeGreaterThan(started[0]!.turn);
    for (const { worker } of started) worker.emit('message', { preview: answer });
    expect(await Promise.all(previews)).toEqual([answer, answer]);
    expect(started.every(({ worker }) => worker.terminated)).toBe(true);
    expect(service.counts()).toEqual({ running: 0, completed: 2, cancelled: 0, refused: 0 });
  });

  it('counts a preview waiting for its turn against the caps, and starts none for a client gone before it', async () => {
    turns = turnCounter();
    const { service, started } = serviceWithFakeWorkers({ perAccount: 2, total: 2 });
    const gone = new AbortController();
    const first = service.preview(request(1, gone.signal));
    const second = service.preview(request(2));
    // Neither worker has started yet, and the gateway's cap of two is reached.
    await expect(service.preview(request(3))).rejects.toThrow(/Too many rule previews/);
    gone.abort();
    await expect(first).rejects.toThrow(/client went away/);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(started).toHaveLength(1);
    started[0]!.worker.emit('message', { preview: answer });
    expect(await second).toBe(answer);
    expect(service.counts()).toEqual({ running: 0, completed: 1, cancelled: 1, refused: 1 });
  });

  it('starts no worker once the gateway is stopping', async () => {
    turns = turnCounter();
    const { service, started } = serviceWithFakeWorkers();
    const preview = service.preview(request(1));
    await service.stop();
    await expect(preview).rejects.toThrow(/gateway is stopping/);
    expect(started).toHaveLength(0);
  });
});

// The broker is an extra: mqtt.js (a second of module compilation on a Pi core) is loaded and the broker
// dialled only once the gateway answers HTTP, its sampler started before that (every feature's `start`
// comes first; server/features.ts, `serving`). mqtt.js's own `connect` is wrapped to look, at the moment
// of the dial, at what the gateway already does.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createGateway, type Gateway } from '../../server/gateway.ts';
import { GATEWAY_CREDENTIALS } from '../support/mosquitto.ts';

const probe = vi.hoisted(() => ({ atDial: [] as boolean[], gateway: null as Gateway | null }));

vi.mock('mqtt', async (importOriginal) => {
  const real = await importOriginal<typeof import('mqtt')>();
  const connect = ((url: string, options: import('mqtt').IClientOptions) => {
    probe.atDial.push(probe.gateway?.app.server.listening ?? false);
    return real.connect(url, options);
  }) as typeof real.connect;
  return { ...real, connect, default: { ...real, connect } };
});

describe('the MQTT bridge at start', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'greenhouse-dial-'));
  afterAll(async () => {
    await probe.gateway?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('dials the broker only once the gateway listens', async () => {
    // Nothing listens on the discard port: the dial fails and is retried with back-off until the stop.
    probe.gateway = await createGateway({
      env: {},
      overrides: { port: 0, host: '127.0.0.1', demo: false, dataDir, mqtt: { url: 'mqtt://127.0.0.1:9', ...GATEWAY_CREDENTIALS } as never },
      webRoot: null,
    });
    await probe.gateway.start();
    await vi.waitFor(() => expect(probe.atDial.length).toBeGreaterThan(0));
    expect(probe.atDial[0]).toBe(true);
  });
});

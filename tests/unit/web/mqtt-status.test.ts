import { describe, expect, it } from 'vitest';
import type { MqttStatus } from '../../../server/contract/fleet.ts';
import { mqttStatusText } from '../../../web/src/screens/settings/mqtt-status.ts';

const base: MqttStatus = {
  enabled: true,
  state: 'connected',
  broker: 'mqtt://192.168.1.10:1883',
  topicRoot: 'greenhouse/house-a',
  discovery: true,
  queued: 0,
  dropped: 0,
  published: 120,
  commandsReceived: 0,
  commandsIgnored: null,
  lastConnectedAt: '2026-06-01T10:00:00.000Z',
  lastError: null,
  nextAttemptAt: null,
};

describe('mqttStatusText', () => {
  it('says how to turn the bridge on when it is off', () => {
    expect(mqttStatusText(undefined)).toMatch(/off.*GREENHOUSE_MQTT_URL/);
    expect(mqttStatusText({ ...base, enabled: false, state: 'off' })).toMatch(/^MQTT bridge: off/);
  });
  it('names the broker and topics when connected', () => {
    expect(mqttStatusText(base)).toBe('MQTT bridge: connected to mqtt://192.168.1.10:1883 as greenhouse/house-a, Home Assistant discovery on, 120 messages sent.');
  });
  it('says when commands from the broker are ignored, and why', () => {
    expect(mqttStatusText({ ...base, commandsIgnored: 'no broker credentials configured (mqtt.username and mqtt.password)' })).toMatch(
      /messages sent\. Commands from the broker are ignored: no broker credentials configured \(mqtt\.username and mqtt\.password\)\.$/,
    );
  });
  it('says why and what waits when the broker is away, and that the greenhouse goes on', () => {
    const text = mqttStatusText({ ...base, state: 'disconnected', lastError: 'connect ECONNREFUSED', queued: 12, dropped: 3, nextAttemptAt: '2026-06-01T10:00:08.000Z' });
    expect(text).toMatch(/cannot reach mqtt:\/\/192\.168\.1\.10:1883 as greenhouse\/house-a \(connect ECONNREFUSED\), next try at .+, 12 messages waiting, 3 dropped; sampling and control go on\./);
  });
});

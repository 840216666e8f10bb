import { describe, expect, it } from 'vitest';
import { EMPTY_RULES, type Device } from '../../../server/contract/device.ts';
import { Discovery } from '../../../server/mqtt/discovery.ts';
import { Topics } from '../../../server/mqtt/topics.ts';

const device = (deviceId: string, deviceType: Device['deviceType'], deviceName: string): Device => ({
  _id: deviceId,
  deviceId,
  greenhouseId: 'house-a',
  deviceName,
  deviceType,
  status: 'OFF',
  powerConsumption: 10,
  intensity: 100,
  autoMode: false,
  location: '',
  lastActivated: null,
  automationRules: EMPTY_RULES,
  output: null,
  createdAt: '2026-06-01T00:00:00.000Z',
  updatedAt: '2026-06-01T00:00:00.000Z',
} as Device);

const discovery = new Discovery({
  prefix: 'ha',
  topics: new Topics('greenhouse', 'house-a'),
  identity: { greenhouseId: 'house-a', model: 'Greenhouse gateway (Raspberry Pi)', swVersion: '1.2.3' },
});

describe('Discovery', () => {
  it('announces VPD and dew point only once they have a value', () => {
    const topics = (seen: string[]) => discovery.configs([], new Set(seen)).map((m) => m.topic);
    expect(topics([])).not.toContain('ha/sensor/house-a/vpd/config');
    expect(topics(['vpdKpa', 'dewPointC'])).toEqual(expect.arrayContaining(['ha/sensor/house-a/vpd/config', 'ha/sensor/house-a/dew_point/config']));
  });

  it('clears a removed window at its cover topic and a relay at its switch topic', () => {
    expect(discovery.cleared({ deviceId: 'window-1', deviceType: 'SERVO' })).toEqual({ topic: 'ha/cover/house-a/window-1/config', payload: '' });
    expect(discovery.cleared({ deviceId: 'pump-2', deviceType: 'WATER_PUMP' })).toEqual({ topic: 'ha/switch/house-a/pump-2/config', payload: '' });
  });

  it('keeps the unique id of a renamed device, so Home Assistant renames the entity instead of adding one', () => {
    const before = JSON.parse(discovery.device(device('fan-1', 'FAN', 'Fan')).payload);
    const after = JSON.parse(discovery.device(device('fan-1', 'FAN', 'Roof fan')).payload);
    expect(after.name).toBe('Roof fan');
    expect(after.unique_id).toBe(before.unique_id);
    expect(after.device).toEqual({
      identifiers: ['greenhouse_gateway_house-a'],
      name: 'Greenhouse house-a',
      manufacturer: 'Greenhouse gateway',
      model: 'Greenhouse gateway (Raspberry Pi)',
      sw_version: '1.2.3',
      serial_number: 'house-a',
    });
    expect(after.icon).toBe('mdi:fan');
  });
});

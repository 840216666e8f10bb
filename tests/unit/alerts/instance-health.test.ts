import { describe, expect, it } from 'vitest';
import { evaluateInstanceHealth, instanceCauseKey } from '../../../server/alerts/evaluator.ts';

const event = (over: Partial<Parameters<typeof evaluateInstanceHealth>[0]> = {}): Parameters<typeof evaluateInstanceHealth>[0] => ({
  greenhouseId: 'g', sensorId: 'air-north', name: 'North bench', kind: 'SHT4X', sensorType: 'DHT11',
  healthy: false, fault: 'no_answer', zoneServed: true, message: 'DHT11 sensor "North bench" (air-north) has not answered for 4 intervals', at: '2026-06-01T00:00:00.000Z',
  ...over,
});
const activeOne = () => new Map([[instanceCauseKey('air-north'), { id: 7, causeKey: instanceCauseKey('air-north'), severity: 'MEDIUM' } as never]]);

describe('one sensor of a zone failing', () => {
  it('raises one MEDIUM SENSOR_DEGRADED naming it while the zone is served', () => {
    const result = evaluateInstanceHealth(event(), new Map());
    expect(result.raise).toEqual([expect.objectContaining({ alertType: 'SENSOR_DEGRADED', severity: 'MEDIUM', deviceId: 'air-north', causeKey: instanceCauseKey('air-north') })]);
    expect(result.raise[0]!.message).toContain('North bench');
  });

  it('says nothing more when the whole zone is lost (its SENSOR_FAULT speaks), or when already raised', () => {
    expect(evaluateInstanceHealth(event({ zoneServed: false }), new Map()).raise).toEqual([]);
    expect(evaluateInstanceHealth(event(), activeOne()).raise).toEqual([]);
  });

  it('resolves when the sensor answers again', () => {
    expect(evaluateInstanceHealth(event({ healthy: true, fault: null }), activeOne()).resolve).toEqual([expect.objectContaining({ id: 7 })]);
  });
});

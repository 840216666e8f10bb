import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../server/config/load.ts';

function problemsOf(instances: unknown[]): string[] {
  try {
    loadConfig({}, { sensors: { instances } } as never);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
}

describe('config sensors.instances', () => {
  it('turns the release-0.1 keys into the four instances dht11, ldr, soil and tank', () => {
    const config = loadConfig({});
    expect(config.sensorInstances.map((i) => [i.sensorId, i.kind])).toEqual([
      ['dht11', 'DHT11'],
      ['ldr', 'ADS1115_LDR'],
      ['soil', 'ADS1115_SOIL'],
      ['tank', 'HCSR04'],
    ]);
  });

  it('takes a list of instances with their kind defaults filled in', () => {
    const config = loadConfig({}, { sensors: { instances: [{ sensorId: 'air-a', kind: 'SHT3X' }, { sensorId: 'root', kind: 'DS18B20', w1Id: '28-0316a2796aff', name: 'Bench roots' }] } } as never);
    expect(config.sensorInstances).toEqual([
      { sensorId: 'air-a', kind: 'SHT3X', name: 'air-a', bus: 1, address: 0x44 },
      { sensorId: 'root', kind: 'DS18B20', name: 'Bench roots', w1Id: '28-0316a2796aff' },
    ]);
  });

  it('refuses an unknown kind with one line naming the field', () => {
    const problems = problemsOf([{ sensorId: 'x', kind: 'DHT99', pin: 4 }]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^sensors\.instances\.0\.kind: must be one of .*"DHT22"/);
  });

  it('refuses a duplicate sensorId', () => {
    const problems = problemsOf([{ sensorId: 'air', kind: 'DHT22', pin: 4 }, { sensorId: 'air', kind: 'DHT22', pin: 17 }]);
    expect(problems).toEqual(['sensors.instances.1.sensorId: "air" is already used by sensors.instances.0']);
  });

  it('refuses an I2C address out of range', () => {
    const problems = problemsOf([{ sensorId: 'a', kind: 'BME280', address: 0x78 }]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^sensors\.instances\.0\.address: .*120/);
  });

  it('refuses a malformed 1-Wire id', () => {
    const problems = problemsOf([{ sensorId: 'r', kind: 'DS18B20', w1Id: '28-xyz' }]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^sensors\.instances\.0\.w1Id: .*"28-xyz"/);
  });

  it('refuses a key the kind does not have, and two sensors on one pin', () => {
    expect(problemsOf([{ sensorId: 'a', kind: 'SHT4X', pin: 4 }])).toEqual(['sensors.instances.0.pin: is not a setting of a SHT4X, got 4']);
    expect(problemsOf([{ sensorId: 'a', kind: 'DHT22', pin: 4 }, { sensorId: 'b', kind: 'DHT11', pin: 4 }])).toEqual([
      'sensors.instances.1: GPIO 4 is already used by sensors.instances.0',
    ]);
  });
});

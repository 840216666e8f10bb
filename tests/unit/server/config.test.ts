import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../server/config/load.ts';

function problemsOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  throw new Error('expected a ConfigError');
}

/** The problems of a config file holding only these outputs. */
function problemsWithOutputs(outputs: object[]): string[] {
  const file = join(mkdtempSync(join(tmpdir(), 'cfg-')), 'config.json');
  writeFileSync(file, JSON.stringify({ outputs }));
  return problemsOf(() => loadConfig({ GREENHOUSE_CONFIG: file }));
}

describe('loadConfig', () => {
  it('gives the design defaults with no input', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 8080, host: '0.0.0.0', dataDir: './data', hardware: 'simulator', demo: true, greenhouseId: 'greenhouse-001' });
    expect(config.outputs.filter((o) => o.device).map((o) => o.device!.deviceType).sort()).toEqual(
      ['COOLING_SYSTEM', 'FAN', 'HEATER', 'LED_LIGHT', 'SERVO', 'WATER_PUMP'],
    );
  });

  it('reads the environment, and demo is off on real hardware unless asked', () => {
    const config = loadConfig({ PORT: '9090', HOST: '127.0.0.1', GREENHOUSE_DATA_DIR: '/tmp/x', GREENHOUSE_HARDWARE: 'raspberry-pi' });
    expect(config).toMatchObject({ port: 9090, host: '127.0.0.1', dataDir: '/tmp/x', hardware: 'raspberry-pi', demo: false });
    expect(loadConfig({ GREENHOUSE_HARDWARE: 'raspberry-pi', GREENHOUSE_DEMO: '1' }).demo).toBe(true);
    expect(loadConfig({ GREENHOUSE_DEMO: '0' }).demo).toBe(false);
  });

  it('names the key and the environment variable of a bad value', () => {
    expect(problemsOf(() => loadConfig({ PORT: 'eighty' }))).toEqual([expect.stringMatching(/^port \(PORT\): must be integer, got "eighty"/)]);
    // One line for a value outside a list of choices, naming them (not one line per choice).
    expect(problemsOf(() => loadConfig({ GREENHOUSE_HARDWARE: 'arduino' }))).toEqual([
      'hardware (GREENHOUSE_HARDWARE): must be one of "simulator", "raspberry-pi", got "arduino"',
    ]);
    expect(problemsOf(() => loadConfig({ GREENHOUSE_DEMO: 'maybe' }))[0]).toMatch(/^demo \(GREENHOUSE_DEMO\)/);
  });

  it('reads the JSON config file and reports every problem in it at once', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfg-'));
    const file = join(dir, 'config.json');
    writeFileSync(file, JSON.stringify({ sensors: { dht11: { pin: 40 }, hcsr04: { triggerPin: 23, echoPin: 24, tankDepthCm: 1 } }, simulator: { timeScale: 0 } }));
    const problems = problemsOf(() => loadConfig({ GREENHOUSE_CONFIG: file }));
    expect(problems.some((p) => p.startsWith('sensors.dht11.pin'))).toBe(true);
    expect(problems.some((p) => p.startsWith('sensors.hcsr04.tankDepthCm'))).toBe(true);
    expect(problems.some((p) => p.startsWith('simulator.timeScale'))).toBe(true);
  });

  it('refuses an unreadable config file with its path', () => {
    expect(problemsOf(() => loadConfig({ GREENHOUSE_CONFIG: '/nonexistent/config.json' }))[0]).toMatch(/GREENHOUSE_CONFIG \(\/nonexistent\/config.json\)/);
  });

  it('refuses outputs sharing a pin or a device id', () => {
    const problems = problemsWithOutputs([
      { outputId: 'a', kind: 'relay', pin: 17, device: { deviceId: 'p', deviceName: 'P', deviceType: 'WATER_PUMP', powerW: 1 } },
      { outputId: 'b', kind: 'relay', pin: 17, device: { deviceId: 'p', deviceName: 'Q', deviceType: 'FAN', powerW: 1 } },
    ]);
    expect(problems).toContain('outputs.1.pin: 17 is already used by outputs.0');
    expect(problems).toContain('outputs.1.device.deviceId: "p" is already used by outputs.0');
  });

  it('refuses device ids differing only in case and names that read the same', () => {
    const problems = problemsWithOutputs([
      { outputId: 'a', kind: 'relay', pin: 17, device: { deviceId: 'fan-1', deviceName: 'Side Fan', deviceType: 'FAN', powerW: 1 } },
      { outputId: 'b', kind: 'relay', pin: 27, device: { deviceId: 'FAN-1', deviceName: 'Other Fan', deviceType: 'FAN', powerW: 1 } },
      { outputId: 'c', kind: 'relay', pin: 22, device: { deviceId: 'fan-3', deviceName: ' side  FAN', deviceType: 'FAN', powerW: 1 } },
    ]);
    expect(problems).toContain('outputs.1.device.deviceId: "FAN-1" is already used by outputs.0');
    expect(problems).toContain('outputs.2.device.deviceName: " side  FAN" is already used by outputs.0');
  });

  // A bad config printed the SMTP password.
  it('never prints a password, whatever is wrong around it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfg-'));
    const file = join(dir, 'config.json');
    for (const smtp of [
      { host: 'mail', port: 'twenty-five', from: 'gw@example.com', user: 'u', pass: 'hunter2-secret' },
      { port: 25, from: 'gw@example.com', pass: 'hunter2-secret' },
      { host: 'mail', port: 25, from: 'gw@example.com', pass: 1234567 },
    ]) {
      writeFileSync(file, JSON.stringify({ smtp }));
      const problems = problemsOf(() => loadConfig({ GREENHOUSE_CONFIG: file })).join('\n');
      expect(problems).toMatch(/^smtp/m);
      // The object the operator wrote is what is wrong with it, not that it is not null.
      expect(problems).not.toMatch(/must be null|anyOf/);
      expect(problems).not.toContain('hunter2');
      expect(problems).not.toContain('1234567');
    }
    // A syntax error near the password: V8 would quote the text around it.
    writeFileSync(file, '{"smtp": {"host": "mail", "pass": "hunter2-secret" "port": 25}}');
    const [problem] = problemsOf(() => loadConfig({ GREENHOUSE_CONFIG: file }));
    expect(problem).toMatch(/cannot read it as JSON/);
    expect(problem).not.toContain('hunter2');
  });

  it('gives every output its wired type, and refuses a device of another type or a free relay without one', () => {
    const config = loadConfig({});
    expect(config.outputs.map((o) => [o.outputId, o.type])).toContainEqual(['relay-1', 'WATER_PUMP']);
    expect(config.outputs.every((o) => o.type)).toBe(true);
    const dir = mkdtempSync(join(tmpdir(), 'cfg-'));
    const file = join(dir, 'config.json');
    writeFileSync(file, JSON.stringify({
      outputs: [
        { outputId: 'a', kind: 'relay', type: 'WATER_PUMP', pin: 17, device: { deviceId: 'p', deviceName: 'P', deviceType: 'FAN', powerW: 1 } },
        { outputId: 'b', kind: 'relay', pin: 18 },
        { outputId: 'c', kind: 'relay', type: 'FAN', pin: 19, device: { deviceId: 'q', deviceName: 'Fan\u202Ex', deviceType: 'FAN', powerW: 1 } },
      ],
    }));
    const problems = problemsOf(() => loadConfig({ GREENHOUSE_CONFIG: file }));
    expect(problems).toContain('outputs.0.device.deviceType: "FAN" differs from the output\'s type "WATER_PUMP"');
    expect(problems.some((p) => p.startsWith('outputs.1.type: required'))).toBe(true);
    expect(problems.some((p) => p.startsWith('outputs.2.device.deviceName'))).toBe(true);
  });

  it('defaults to registration by approval, 30-day sessions and the design caps', () => {
    expect(loadConfig({})).toMatchObject({
      registration: 'approval',
      sessionMaxDays: 30,
      registrationRateLimit: { max: 10, windowMs: 3_600_000 },
      limits: { websocketsPerAccount: 20 },
    });
    expect(problemsOf(() => loadConfig({}, { registration: 'anyone' as never }))[0]).toMatch(/^registration/);
  });
});

describe('loadConfig: mqtt', () => {
  it('is off by default and on with GREENHOUSE_MQTT_URL, keeping the file’s other mqtt keys', () => {
    const off = loadConfig({});
    expect(off.mqtt).toEqual({ baseTopic: 'greenhouse', homeAssistant: { discovery: true, prefix: 'homeassistant' }, queueLimit: 1000 });
    const dir = mkdtempSync(join(tmpdir(), 'greenhouse-config-'));
    const file = join(dir, 'config.json');
    writeFileSync(file, JSON.stringify({ mqtt: { url: 'mqtt://file:1883', username: 'gw', baseTopic: 'farm', homeAssistant: { discovery: false } } }));
    const on = loadConfig({ GREENHOUSE_CONFIG: file, GREENHOUSE_MQTT_URL: 'mqtts://broker.lan:8883' });
    expect(on.mqtt).toMatchObject({ url: 'mqtts://broker.lan:8883', username: 'gw', baseTopic: 'farm', homeAssistant: { discovery: false, prefix: 'homeassistant' } });
  });

  it('names the key of a bad value and never prints the password, in a key or inside the url', () => {
    const problems = [
      ...problemsOf(() => loadConfig({ GREENHOUSE_MQTT_URL: 'http://gw:hunter2-secret@broker.lan' })),
      ...problemsOf(() => loadConfig({}, { mqtt: { url: 'mqtt://gw:hunter2-secret@broker.lan', password: 12345678 as never, baseTopic: 'a/#' } as never })),
    ];
    const text = problems.join('\n');
    expect(text).toMatch(/mqtt\.url \(GREENHOUSE_MQTT_URL\): expected one of mqtt:\/\//);
    expect(text).toContain('"http://broker.lan"');
    expect(text).toMatch(/mqtt\.password: .*\(hidden\)/);
    expect(text).toMatch(/mqtt\.baseTopic/);
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('12345678');
    expect(problemsOf(() => loadConfig({ GREENHOUSE_MQTT_URL: 'not a url' })).join('\n')).toMatch(/mqtt\.url \(GREENHOUSE_MQTT_URL\): expected a broker url/);
  });
});

import { readFileSync } from 'node:fs';
import Value from 'typebox/value';
import { deviceIdKey, deviceNameKey } from '../../common/device-names.ts';
import { ConfigSchema, wiredTypeOf, type Config, type WiredOutput } from './schema.ts';
import { checkSensorInstances, resolveSensorInstances, type SensorInstanceConfig } from './sensor-instances.ts';
import { unknownKeys } from './unknown-keys.ts';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

/** Environment variables (docs/decisions.md, Run-time interface) and the config key each one sets. */
const ENV_KEYS: Array<{ env: string; key: keyof Config; parse: (raw: string) => unknown }> = [
  { env: 'PORT', key: 'port', parse: (raw) => (/^\d+$/.test(raw) ? Number(raw) : raw) },
  { env: 'HOST', key: 'host', parse: (raw) => raw },
  { env: 'GREENHOUSE_DATA_DIR', key: 'dataDir', parse: (raw) => raw },
  { env: 'GREENHOUSE_HARDWARE', key: 'hardware', parse: (raw) => raw },
  {
    env: 'GREENHOUSE_DEMO',
    key: 'demo',
    parse: (raw) => ({ '1': true, true: true, '0': false, false: false })[raw.toLowerCase()] ?? raw,
  },
];

export interface ResolvedConfig extends Omit<Config, 'outputs'> {
  demo: boolean;
  outputs: WiredOutput[];
  /** Every sensor to read: `sensors.instances`, or the legacy keys as one instance each. */
  sensorInstances: SensorInstanceConfig[];
}

/**
 * Builds the configuration from, in rising priority: the schema's defaults, the JSON file named by
 * GREENHOUSE_CONFIG, and the environment. Every problem is reported at once, each naming its key.
 */
export function loadConfig(env: Env = process.env, overrides: Partial<Config> = {}): ResolvedConfig {
  const problems: string[] = [];
  let fromFile: Record<string, unknown> = {};
  const file = env.GREENHOUSE_CONFIG;
  if (file) {
    try {
      const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
        problems.push(`GREENHOUSE_CONFIG (${file}): expected a JSON object`);
      } else {
        fromFile = parsed as Record<string, unknown>;
      }
    } catch (err) {
      // V8's JSON.parse message quotes the text around the error, which may be a password.
      problems.push(`GREENHOUSE_CONFIG (${file}): cannot read it as JSON${positionOf(err)}`);
    }
  }
  problems.push(...unknownKeys(ConfigSchema, fromFile));
  const raw: Record<string, unknown> = { ...fromFile };
  for (const { env: name, key, parse } of ENV_KEYS) {
    const value = env[name];
    if (value !== undefined && value !== '') raw[key] = parse(value);
  }
  // GREENHOUSE_MQTT_URL sets a nested key (mqtt.url), so it is merged into the file's mqtt object.
  const mqttUrl = env.GREENHOUSE_MQTT_URL;
  if (mqttUrl !== undefined && mqttUrl !== '') raw.mqtt = { ...(isObject(raw.mqtt) ? raw.mqtt : {}), url: mqttUrl };
  // HTTPS_PORT sets https.port the same way.
  const httpsPort = env.HTTPS_PORT;
  if (httpsPort !== undefined && httpsPort !== '') raw.https = { ...(isObject(raw.https) ? raw.https : {}), port: /^\d+$/.test(httpsPort) ? Number(httpsPort) : httpsPort };
  Object.assign(raw, overrides);

  const withDefaults = Value.Default(ConfigSchema, Value.Clone(raw)) as Config;
  for (const error of schemaErrors(withDefaults)) problems.push(describe(error.instancePath, error.message, withDefaults));
  problems.push(...checkWiring(withDefaults), ...checkMqtt(withDefaults), ...checkHttps(withDefaults), ...checkSensorInstances(withDefaults.sensors?.instances));
  if (problems.length > 0) throw new ConfigError(problems);

  // Every output carries its wired type from here on: binding and safety read only that.
  const outputs: WiredOutput[] = withDefaults.outputs.map((output) => ({ ...output, type: wiredTypeOf(output)! }));
  return { ...withDefaults, outputs, sensorInstances: resolveSensorInstances(withDefaults.sensors), demo: withDefaults.demo ?? withDefaults.hardware === 'simulator' };
}

type SchemaError = { keyword: string; schemaPath: string; instancePath: string; params: Record<string, unknown>; message: string };

/**
 * TypeBox reports a value that fits no branch of a union once per branch and once for the union
 * ("must be equal to constant" twice, then "must match a schema in anyOf"). An operator reads one line
 * per field: the allowed values of a union of literals, or the errors of the branch the value was meant
 * for (an smtp object with a bad port, not "must be null").
 */
function schemaErrors(config: Config): SchemaError[] {
  const errors = [...Value.Errors(ConfigSchema, config)] as SchemaError[];
  const unions = errors.filter((error) => error.keyword === 'anyOf');
  const branchesOf = (union: SchemaError) => errors.filter((error) => error.schemaPath.startsWith(`${union.schemaPath}/anyOf/`));
  const inUnion = (error: SchemaError) => unions.some((union) => error.schemaPath.startsWith(`${union.schemaPath}/anyOf/`));
  return errors.flatMap((error) => {
    if (inUnion(error)) return [];
    if (error.keyword !== 'anyOf') return [error];
    const branches = branchesOf(error);
    if (branches.length > 0 && branches.every((branch) => branch.keyword === 'const')) {
      return [{ ...error, message: `must be one of ${branches.map((branch) => JSON.stringify(branch.params.allowedValue)).join(', ')}` }];
    }
    // Branches of another type entirely (null beside an object) say nothing about what was meant.
    const meant = branches.filter((branch) => !(branch.keyword === 'type' && branch.instancePath === error.instancePath));
    return meant.length > 0 ? meant : [error];
  });
}

function describe(instancePath: string, message: string, config: unknown): string {
  const key = instancePath.replace(/^\//, '').replaceAll('/', '.') || '(root)';
  const envName = key === 'mqtt.url' ? 'GREENHOUSE_MQTT_URL' : ENV_KEYS.find((e) => e.key === key)?.env;
  const value = Value.Pointer.Get(config, instancePath);
  const actual = SECRET_KEY.test(key.split('.').at(-1) ?? '') ? '(hidden)' : JSON.stringify(value, hideSecrets);
  return `${key}${envName ? ` (${envName})` : ''}: ${message}, got ${actual}`;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Keys whose values never appear in an error message or a log line. */
const SECRET_KEY = /^(password|pass|secret|token|jwtSecret)$/i;

/** JSON.stringify replacer: secrets hidden, credentials cut out of urls. */
function hideSecrets(key: string, value: unknown): unknown {
  if (SECRET_KEY.test(key)) return '(hidden)';
  return typeof value === 'string' ? withoutCredentials(value) : value;
}

/** A url without its user info (`mqtt://user:secret@host` -> `mqtt://host`), for messages and logs. */
export function withoutCredentials(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@\s]*@/i, '$1');
}

const MQTT_PROTOCOLS = ['mqtt:', 'mqtts:', 'tcp:', 'ssl:', 'ws:', 'wss:'];

/** The broker url must parse and name a protocol the mqtt package speaks. */
/** A grower's certificate needs its key and the reverse; HTTPS cannot share the HTTP port. */
function checkHttps(config: Config): string[] {
  const { port, certFile, keyFile } = config.https;
  const problems: string[] = [];
  if ((certFile === undefined) !== (keyFile === undefined)) {
    problems.push(`https.${certFile === undefined ? 'certFile' : 'keyFile'}: must be set together with https.${certFile === undefined ? 'keyFile' : 'certFile'}`);
  }
  if (port !== null && port !== 0 && port === config.port) problems.push(`https.port (HTTPS_PORT): must differ from port (PORT), both are ${port}`);
  return problems;
}

function checkMqtt(config: Config): string[] {
  const url = config.mqtt?.url;
  if (typeof url !== 'string') return [];
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    return [`mqtt.url (GREENHOUSE_MQTT_URL): expected a broker url such as mqtt://192.168.1.10:1883, got ${JSON.stringify(withoutCredentials(url))}`];
  }
  if (!MQTT_PROTOCOLS.includes(protocol)) {
    return [`mqtt.url (GREENHOUSE_MQTT_URL): expected one of ${MQTT_PROTOCOLS.map((p) => `${p}//`).join(', ')}, got ${JSON.stringify(withoutCredentials(url))}`];
  }
  return [];
}

function positionOf(err: unknown): string {
  const match = /position (\d+)/.exec((err as Error).message ?? '');
  return match ? ` (syntax error at character ${match[1]})` : ' (syntax error)';
}

/**
 * Cross-field checks the schema cannot express: unique output ids, pins, device ids (regardless of case)
 * and device names (as a grower reads them, common/device-names.ts).
 */
function checkWiring(config: Config): string[] {
  const problems: string[] = [];
  if (!Array.isArray(config.outputs)) return problems;
  const seen = { outputId: new Map<string, number>(), deviceId: new Map<string, number>(), deviceName: new Map<string, number>(), pin: new Map<number, number>() };
  config.outputs.forEach((output, i) => {
    const check = <K>(map: Map<K, number>, value: K | undefined, what: string, keyOf: (value: K) => K = (v) => v) => {
      if (value === undefined || value === null) return;
      const key = keyOf(value);
      const first = map.get(key);
      if (first !== undefined) problems.push(`outputs.${i}.${what}: ${JSON.stringify(value)} is already used by outputs.${first}`);
      else map.set(key, i);
    };
    check(seen.outputId, output.outputId, 'outputId');
    // Checked even when the schema found errors: only strings are keyed.
    check(seen.deviceId, typeof output.device?.deviceId === 'string' ? output.device.deviceId : undefined, 'device.deviceId', deviceIdKey);
    check(seen.deviceName, typeof output.device?.deviceName === 'string' ? output.device.deviceName : undefined, 'device.deviceName', deviceNameKey);
    check(seen.pin, output.pin, 'pin');
    if (output.device && (output.device.deviceType === 'SERVO') !== (output.kind === 'servo')) {
      problems.push(`outputs.${i}.device.deviceType: a SERVO device needs kind "servo" and other devices kind "relay"`);
    }
    const wired = wiredTypeOf(output);
    if (wired === null) {
      problems.push(`outputs.${i}.type: required for a relay without a device (the kind of device it drives, e.g. "FAN")`);
    } else if (output.device && output.device.deviceType !== wired) {
      problems.push(`outputs.${i}.device.deviceType: ${JSON.stringify(output.device.deviceType)} differs from the output's type ${JSON.stringify(wired)}`);
    } else if ((wired === 'SERVO') !== (output.kind === 'servo')) {
      problems.push(`outputs.${i}.type: a SERVO needs kind "servo" and other types kind "relay"`);
    }
  });
  return problems;
}

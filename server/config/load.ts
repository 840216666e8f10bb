import { readFileSync } from 'node:fs';
import Value from 'typebox/value';
import { ConfigSchema, wiredTypeOf, type Config, type WiredOutput } from './schema.ts';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

/** Environment variables (design.md, Run-time interface) and the config key each one sets. */
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
  const raw: Record<string, unknown> = { ...fromFile };
  for (const { env: name, key, parse } of ENV_KEYS) {
    const value = env[name];
    if (value !== undefined && value !== '') raw[key] = parse(value);
  }
  Object.assign(raw, overrides);

  const withDefaults = Value.Default(ConfigSchema, Value.Clone(raw)) as Config;
  for (const error of Value.Errors(ConfigSchema, withDefaults)) {
    problems.push(describe(error.instancePath, error.message, withDefaults));
  }
  problems.push(...checkWiring(withDefaults));
  if (problems.length > 0) throw new ConfigError(problems);

  // Every output carries its wired type from here on: binding and safety read only that.
  const outputs: WiredOutput[] = withDefaults.outputs.map((output) => ({ ...output, type: wiredTypeOf(output)! }));
  return { ...withDefaults, outputs, demo: withDefaults.demo ?? withDefaults.hardware === 'simulator' };
}

/** Keys whose values are never printed, at any depth (SMTP and MQTT passwords, tokens). */
const SECRET_KEY = /^(pass|password|secret|token|jwtSecret)$/i;

function describe(instancePath: string, message: string, config: unknown): string {
  const key = instancePath.replace(/^\//, '').replaceAll('/', '.') || '(root)';
  const envName = ENV_KEYS.find((e) => e.key === key)?.env;
  const last = key.split('.').at(-1) ?? '';
  const actual = SECRET_KEY.test(last) ? '[redacted]' : JSON.stringify(Value.Pointer.Get(config, instancePath), redactSecrets);
  return `${key}${envName ? ` (${envName})` : ''}: ${message}, got ${actual}`;
}

function redactSecrets(key: string, value: unknown): unknown {
  return SECRET_KEY.test(key) && value !== undefined ? '[redacted]' : value;
}

function positionOf(err: unknown): string {
  const match = /position (\d+)/.exec((err as Error).message ?? '');
  return match ? ` (syntax error at character ${match[1]})` : ' (syntax error)';
}

/** Cross-field checks the schema cannot express: unique output ids, device ids and pins. */
function checkWiring(config: Config): string[] {
  const problems: string[] = [];
  if (!Array.isArray(config.outputs)) return problems;
  const seen = { outputId: new Map<string, number>(), deviceId: new Map<string, number>(), pin: new Map<number, number>() };
  config.outputs.forEach((output, i) => {
    const check = <K>(map: Map<K, number>, value: K | undefined, what: string) => {
      if (value === undefined) return;
      const first = map.get(value);
      if (first !== undefined) problems.push(`outputs.${i}.${what}: ${JSON.stringify(value)} is already used by outputs.${first}`);
      else map.set(value, i);
    };
    check(seen.outputId, output.outputId, 'outputId');
    check(seen.deviceId, output.device?.deviceId, 'device.deviceId');
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

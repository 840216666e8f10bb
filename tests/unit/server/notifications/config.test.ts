import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../../server/config/load.ts';

it('notifications config: defaults, and a link address that is not http(s) stops the start naming the key', () => {
  expect(loadConfig({}).notifications).toEqual({ telegramApiUrl: 'https://api.telegram.org' });
  const file = join(mkdtempSync(join(tmpdir(), 'cfg-')), 'config.json');
  writeFileSync(file, JSON.stringify({ notifications: { publicUrl: 'greenhouse.local:8080' } }));
  let problems: string[] = [];
  try {
    loadConfig({ GREENHOUSE_CONFIG: file });
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    problems = err.problems;
  }
  expect(problems.some((p) => p.startsWith('notifications.publicUrl'))).toBe(true);
  writeFileSync(file, JSON.stringify({ notifications: { publicUrl: 'https://greenhouse.farm.test' } }));
  expect(loadConfig({ GREENHOUSE_CONFIG: file }).notifications.publicUrl).toBe('https://greenhouse.farm.test');
});

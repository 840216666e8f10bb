import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/config/load.ts';

const EXAMPLE = join(import.meta.dirname, '..', '..', '..', 'scripts', 'config.example.json');

describe('scripts/config.example.json', () => {
  it('is a valid config that spells out exactly the built-in defaults (what docs/hardware.md describes)', () => {
    const fromExample = loadConfig({ GREENHOUSE_CONFIG: EXAMPLE });
    const defaults = loadConfig({});
    expect(fromExample).toEqual(defaults);
    expect(JSON.parse(readFileSync(EXAMPLE, 'utf8')).port).toBeUndefined(); // PORT belongs to the unit's environment
  });
});

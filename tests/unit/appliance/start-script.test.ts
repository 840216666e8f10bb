import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error plain JavaScript start script without type declarations
import { buildReason } from '../../../scripts/start.mjs';

/** A checkout with sources and builds, each file stamped `ageS` seconds in the past. */
function checkout(dir: string, files: Record<string, number>) {
  const nowS = Date.now() / 1000;
  for (const [path, ageS] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), '');
    utimesSync(join(dir, path), nowS - ageS, nowS - ageS);
  }
}

describe('npm start (scripts/start.mjs): build first when the build is missing or stale', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const sources = { 'server/main.ts': 100, 'drivers/index.ts': 100, 'package.json': 100, 'web/src/main.tsx': 100, 'web/index.html': 100 };

  it('runs the existing build when it is newer than every source', () => {
    dir = mkdtempSync(join(tmpdir(), 'start-'));
    checkout(dir, { ...sources, 'dist/server/main.js': 10, 'web/dist/index.html': 10 });
    expect(buildReason(dir)).toBeNull();
  });

  it('builds when the compiled server is missing', () => {
    dir = mkdtempSync(join(tmpdir(), 'start-'));
    checkout(dir, { ...sources, 'web/dist/index.html': 10 });
    expect(buildReason(dir)).toBe('no dist/server/main.js');
  });

  it('builds when a server source changed after the build', () => {
    dir = mkdtempSync(join(tmpdir(), 'start-'));
    checkout(dir, { ...sources, 'dist/server/main.js': 10, 'web/dist/index.html': 10, 'server/sensors/sampling-loop.ts': 5 });
    expect(buildReason(dir)).toBe('dist/server/main.js is older than its sources');
  });

  it('builds when the dashboard sources changed after its build', () => {
    dir = mkdtempSync(join(tmpdir(), 'start-'));
    checkout(dir, { ...sources, 'dist/server/main.js': 10, 'web/dist/index.html': 10, 'web/src/App.tsx': 1 });
    expect(buildReason(dir)).toBe('web/dist/index.html is older than its sources');
  });
});

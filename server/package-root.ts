import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The directory of the nearest package.json above the module at `fromUrl`: the checkout's root whether
 * the module runs from its TypeScript source (server/...) or compiled (dist/server/..., see
 * scripts/build-server.mjs), so files outside the build (package.json, web/dist) are found from both.
 */
export function packageRoot(fromUrl: string): string {
  let dir = dirname(fileURLToPath(fromUrl));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${fileURLToPath(fromUrl)}`);
    dir = parent;
  }
  return dir;
}

/** The app's version from the package.json at the package root (source or compiled build alike). */
export function packageVersion(): string {
  try {
    return (JSON.parse(readFileSync(join(packageRoot(import.meta.url), 'package.json'), 'utf8')) as { version?: string }).version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

#!/usr/bin/env node
// Compiles the server (server/main.ts and everything it imports from server/ and drivers/) into one
// plain-JavaScript ES module, dist/server/main.js, that runs with `node` alone: no TypeScript transform
// and no transpiler child process at run time (design.md, Run-time interface). Packages stay external
// (resolved from node_modules as usual): native addons cannot be bundled, and the hardware packages must
// stay lazy `await import()`s that simulator mode never loads.
// Plain JS so it runs before anything is compiled; `npm run build` calls it after the dashboard build.
import { cpSync, readdirSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const SERVER_ENTRY = join(ROOT, 'dist', 'server', 'main.js');

/**
 * Resolved from node_modules at run time: packages with a compiled addon (or loading one), and
 * nodemailer and mqtt, imported only when an alert email is sent or the MQTT bridge is configured
 * (bundled, their source would sit on the heap of every gateway, most of which never use them).
 */
const EXTERNAL_PACKAGES = [
  'better-sqlite3', '@node-rs/argon2', 'unix-dgram', 'onoff', 'epoll', 'pigpio', 'node-dht-sensor', 'ads1x15', 'i2c-bus',
  'nodemailer', 'mqtt',
];

/**
 * Worker-thread entry modules (started with startModuleWorker, server/db/worker.ts, from a sibling file
 * of the module that starts them): each is bundled on its own, at the same place under dist/.
 */
function workerEntries(dir = join(ROOT, 'server')) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return workerEntries(path);
    return entry.name.endsWith('-worker.ts') ? [path] : [];
  });
}

/** Where a source file's code is run from: the same path under dist/, with a .js extension. */
function compiledPath(sourcePath) {
  return join(ROOT, 'dist', relative(ROOT, sourcePath)).replace(/\.ts$/, '.js');
}

/**
 * Each module keeps `import.meta.url` as if it had been compiled on its own to its place under dist/
 * (server/db/open.ts -> dist/server/db/open.js), whichever bundle it ends up in: then a worker's
 * sibling file and the migrations (copied beside it) are found where the module expects them, and
 * files outside the build (package.json, web/dist) through server/package-root.ts.
 */
function compiledImportMetaUrl(outfile) {
  return {
    name: 'compiled-import-meta-url',
    setup(pluginBuild) {
      pluginBuild.onLoad({ filter: /\.ts$/ }, async (args) => {
        const contents = await readFile(args.path, 'utf8');
        if (!contents.includes('import.meta.url')) return { contents, loader: 'ts' };
        const fromOutput = relative(dirname(outfile), compiledPath(args.path)).split('\\').join('/');
        return { contents: contents.replaceAll('import.meta.url', `new URL(${JSON.stringify(fromOutput)}, import.meta.url).href`), loader: 'ts' };
      });
    },
  };
}

/** Builds dist/server/main.js and its workers; resolves with esbuild's metafile of the main bundle. */
export async function buildServer({ quiet = false } = {}) {
  const entries = [join(ROOT, 'server', 'main.ts'), ...workerEntries()];
  const metafiles = await Promise.all(
    entries.map(async (entry) => {
      const outfile = compiledPath(entry);
      const result = await build({
        entryPoints: [entry],
        outfile,
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: 'node20.19',
        external: EXTERNAL_PACKAGES,
        // Stack traces map back to the sources with `node --enable-source-maps` (kept off at run time:
        // the maps cost memory on every start).
        sourcemap: 'linked',
        minify: true,
        // Error and class names stay readable in the journal.
        keepNames: true,
        legalComments: 'none',
        metafile: true,
        logLevel: quiet ? 'error' : 'warning',
        plugins: [compiledImportMetaUrl(outfile)],
        banner: {
          js: [
            '// Built by scripts/build-server.mjs from the TypeScript sources: do not edit, run `npm run build`.',
            // Bundled CommonJS packages call require() for Node built-ins; an ES module has none of its own.
            "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
          ].join('\n'),
        },
      });
      return result.metafile;
    }),
  );
  // The SQL migrations are applied at start from beside server/db/open.ts's compiled place.
  const migrations = join(ROOT, 'server', 'db', 'migrations');
  rmSync(join(ROOT, 'dist', 'server', 'db', 'migrations'), { recursive: true, force: true });
  cpSync(migrations, join(ROOT, 'dist', 'server', 'db', 'migrations'), { recursive: true });
  return metafiles[0];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const metafile = await buildServer();
  const bytes = Object.values(metafile.outputs).reduce((sum, output) => sum + output.bytes, 0);
  console.log(`server compiled: ${relative(ROOT, SERVER_ENTRY)} (${Object.keys(metafile.inputs).length} sources, ${(bytes / 1024).toFixed(0)} kB with source map)`);
}

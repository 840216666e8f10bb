#!/usr/bin/env node
// Compiles the server (server/main.ts and everything it imports from server/ and drivers/) into one
// plain-JavaScript ES module, dist/server/main.js, that runs with `node` alone: no TypeScript transform
// and no transpiler child process at run time (design.md, Run-time interface). Packages stay external
// (resolved from node_modules as usual): native addons cannot be bundled, and the hardware packages must
// stay lazy `await import()`s that simulator mode never loads.
// Plain JS so it runs before anything is compiled; `npm run build` calls it after the dashboard build.
import { readFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const SERVER_ENTRY = join(ROOT, 'dist', 'server', 'main.js');

/**
 * Resolved from node_modules at run time: packages with a compiled addon (or loading one), and
 * nodemailer, imported only when an alert email is sent (bundled, its source would sit on the heap of
 * every gateway, most of which never mail).
 */
const EXTERNAL_PACKAGES = [
  'better-sqlite3', '@node-rs/argon2', 'unix-dgram', 'onoff', 'epoll', 'pigpio', 'node-dht-sensor', 'ads1x15', 'i2c-bus',
  'nodemailer',
];

/**
 * Sources find their data files relative to themselves (server/db/migrations, package.json, web/dist)
 * through `import.meta.url`. In a bundle that would be the bundle's URL, so each module's
 * `import.meta.url` is rewritten to its own source file's URL, computed from the bundle's location at
 * run time: the compiled server keeps reading the migrations and the dashboard from the checkout.
 */
const sourceUrlPlugin = {
  name: 'source-import-meta-url',
  setup(pluginBuild) {
    pluginBuild.onLoad({ filter: /\.ts$/ }, async (args) => {
      if (args.path.includes(`${join('node_modules', '')}`)) return undefined;
      const contents = await readFile(args.path, 'utf8');
      if (!contents.includes('import.meta.url')) return { contents, loader: 'ts' };
      const fromBundle = relative(dirname(SERVER_ENTRY), args.path).split('\\').join('/');
      return { contents: contents.replaceAll('import.meta.url', `new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`), loader: 'ts' };
    });
  },
};

/** Builds dist/server/main.js; resolves with esbuild's metafile (inputs and output sizes). */
export async function buildServer({ quiet = false } = {}) {
  const result = await build({
    entryPoints: [join(ROOT, 'server', 'main.ts')],
    outfile: SERVER_ENTRY,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    external: EXTERNAL_PACKAGES,
    // Stack traces map back to the sources with `node --enable-source-maps` (kept off at run time: the
    // maps cost memory on every start).
    sourcemap: 'linked',
    minify: true,
    // Error and class names stay readable in the journal.
    keepNames: true,
    legalComments: 'none',
    metafile: true,
    logLevel: quiet ? 'error' : 'warning',
    plugins: [sourceUrlPlugin],
    banner: {
      js: [
        '// Built by scripts/build-server.mjs from server/main.ts: do not edit, run `npm run build`.',
        // Bundled CommonJS packages call require() for Node built-ins; an ES module has none of its own.
        "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
      ].join('\n'),
    },
  });
  return result.metafile;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const metafile = await buildServer();
  const bytes = Object.values(metafile.outputs).reduce((sum, output) => sum + output.bytes, 0);
  console.log(`server compiled: ${relative(ROOT, SERVER_ENTRY)} (${Object.keys(metafile.inputs).length} sources, ${(bytes / 1024).toFixed(0)} kB with source map)`);
}

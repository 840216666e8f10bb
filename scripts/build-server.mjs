#!/usr/bin/env node
// Compiles the server (server/main.ts, everything it imports from server/ and drivers/, and the packages
// it uses) into plain-JavaScript ES modules under dist/server/ (main.js and one chunk per package beside
// it) that run with `node` alone: no TypeScript transform and no transpiler child process at run time
// (docs/decisions.md, Run-time interface). A few packages stay external, resolved from node_modules as usual
// (EXTERNAL_PACKAGES): native addons cannot be bundled, and the hardware packages must stay lazy
// `await import()`s that simulator mode never loads.
// Plain JS so it runs before anything is compiled; `npm run build` calls it after the dashboard build.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { newestMtimeMs, SERVER_SOURCES } from './start.mjs';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const SERVER_ENTRY = join(ROOT, 'dist', 'server', 'main.js');

/**
 * The schema compilers, required only when a schema has no code from the build (server/http/
 * lazy-schema-compilers.ts): bundled, they would be imported by Fastify's chunk and compiled at every
 * start for nothing, about 400 kB of JavaScript. Their generated code requires their run-time parts from
 * node_modules in any case (ajv/dist/runtime, fast-json-stringify/lib/serializer).
 */
const SCHEMA_COMPILER_PACKAGES = ['ajv', 'ajv-formats', 'fast-json-stringify', '@fastify/ajv-compiler', '@fastify/fast-json-stringify-compiler'];

/**
 * Resolved from node_modules at run time: packages with a compiled addon (or loading one), and
 * nodemailer, imported only when an alert email is sent. mqtt is bundled: like every package it lands
 * in a chunk of its own (see packageEntryPoints), which the bridge's `import('mqtt')` loads only when a
 * broker is configured, and minified it compiles in about half the time of its 124 modules from
 * node_modules (a second's hold of the event loop after start on a Pi core; docs/performance.md).
 */
const EXTERNAL_PACKAGES = [
  'better-sqlite3', '@node-rs/argon2', 'unix-dgram', 'onoff', 'epoll', 'pigpio', 'node-dht-sensor', 'ads1x15', 'i2c-bus',
  'nodemailer', 'glob', 'duplexify', 'asn1.js', 'worker-timers',
  ...SCHEMA_COMPILER_PACKAGES,
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

/** mqtt.js's SOCKS proxy code, as its TCP and TLS connections get it: loaded when a connection goes through a proxy. */
const LAZY_MQTT_SOCKS = 'const socks_1 = { default: (...args) => require("./socks").default(...args) };';

/**
 * Edits the build makes inside bundled packages, so start-up does not pay for what the gateway never
 * uses. Mostly requires a package makes as its module loads, moved to where they are used. Fastify
 * requires node:http2 for a server option the gateway never sets (about 15 ms of CPU at full speed and a
 * megabyte resident, some 0.1 s of every start on a Pi core); @fastify/static requires glob, which it calls
 * only to list the files of a `wildcard: false` root (server/http/static.ts serves with the wildcard);
 * fast-jwt requires asn1.js (with bn.js, 90 kB) and defines three key structures with it, used only to
 * read PEM keys (the gateway signs its tokens with a secret: HS256), so they are defined when first
 * decoded; @fastify/websocket requires duplexify (with readable-stream, 70 kB) for `injectWS`, a test
 * helper the gateway never calls. mqtt.js requires worker-timers (with @babel/runtime), which keeps a
 * browser tab's timers running and which it never picks in Node.js, and its TCP and TLS connections
 * require its SOCKS proxy code (the socks package, with node:dns and node:assert) whether a proxy is
 * configured or not. glob, asn1.js, duplexify and worker-timers are then left out of the bundle
 * (EXTERNAL_PACKAGES), required from node_modules if ever called.
 * Each edit must match its file exactly once, or the build fails: an upgrade that changes the line is
 * noticed here, not by a gateway that loads more than it did (docs/performance.md, "What start-up loads").
 */
const DEPENDENCY_EDITS = [
  {
    file: 'node_modules/fastify/lib/server.js',
    from: "const http2 = require('node:http2')",
    to: "const http2 = { createServer: (...args) => require('node:http2').createServer(...args), createSecureServer: (...args) => require('node:http2').createSecureServer(...args) }",
  },
  {
    file: 'node_modules/@fastify/static/index.js',
    from: "const { glob } = require('glob')",
    to: "const glob = (...args) => require('glob').glob(...args)",
  },
  {
    file: 'node_modules/fast-jwt/src/crypto.js',
    from: "const asn = require('asn1.js')",
    to: "const asn = { define: (name, body) => { let model; const get = () => (model ??= require('asn1.js').define(name, body)); return { decode: (...args) => get().decode(...args) } } }",
  },
  {
    file: 'node_modules/@fastify/websocket/index.js',
    from: "const Duplexify = require('duplexify')",
    to: "const Duplexify = function (...args) { return new (require('duplexify'))(...args) }",
  },
  {
    file: 'node_modules/mqtt/build/lib/connect/tcp.js',
    from: 'const socks_1 = __importDefault(require("./socks"));',
    to: LAZY_MQTT_SOCKS,
  },
  {
    file: 'node_modules/mqtt/build/lib/connect/tls.js',
    from: 'const socks_1 = __importDefault(require("./socks"));',
    to: LAZY_MQTT_SOCKS,
  },
  {
    file: 'node_modules/mqtt/build/lib/get-timer.js',
    from: 'const worker_timers_1 = require("worker-timers");',
    to: 'const worker_timers_1 = { setInterval: (...args) => require("worker-timers").setInterval(...args), clearInterval: (...args) => require("worker-timers").clearInterval(...args) };',
  },
  // Not a require: find-my-way compiles a matcher with `new Function` for every static node of the
  // route tree as routes are added (a few hundred at start, 10 ms of CPU at full speed). Each node now
  // compiles its matcher when a request first reaches it, and keeps it.
  {
    file: 'node_modules/find-my-way/lib/node.js',
    from: 'function compilePrefixMatch (prefix) {',
    to: 'function matchPrefixOnFirstUse (path, i) { this.matchPrefix = compilePrefixMatch(this.prefix); return this.matchPrefix(path, i) }\nfunction compilePrefixMatch (prefix) {',
  },
  {
    file: 'node_modules/find-my-way/lib/node.js',
    from: 'this.matchPrefix = kind === NODE_TYPES.STATIC ? compilePrefixMatch(prefix) : null',
    to: 'this.matchPrefix = kind === NODE_TYPES.STATIC ? matchPrefixOnFirstUse : null',
  },
  {
    file: 'node_modules/find-my-way/lib/node.js',
    from: 'this.matchPrefix = compilePrefixMatch(childPrefix)',
    to: 'this.matchPrefix = matchPrefixOnFirstUse',
  },
];

const dependencyEdits = {
  name: 'dependency-edits',
  setup(pluginBuild) {
    for (const file of new Set(DEPENDENCY_EDITS.map((edit) => edit.file))) {
      const path = join(ROOT, file);
      pluginBuild.onLoad({ filter: new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`) }, async () => {
        let contents = await readFile(path, 'utf8');
        for (const edit of DEPENDENCY_EDITS.filter((candidate) => candidate.file === file)) {
          const matches = contents.split(edit.from).length - 1;
          if (matches !== 1) throw new Error(`${edit.file}: expected "${edit.from}" once, found it ${matches} times (was the package upgraded?)`);
          contents = contents.replace(edit.from, edit.to);
        }
        return { contents, loader: 'js' };
      });
    }
  },
};

/**
 * mqtt.js and mqtt-packet each bundle a copy of Node.js's streams (readable-stream 4, for browsers),
 * 120 kB of JavaScript each, compiled as the bridge connects and kept. In the gateway they get Node.js's
 * own (node:stream), which those copies mirror: the MQTT bridge's chunk is 217 kB instead of 512, and a
 * gateway with a broker idles about 2 MB lower (docs/performance.md, "MQTT on Node's own streams").
 */
const mqttOnNodeStreams = {
  name: 'mqtt-on-node-streams',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^readable-stream$/ }, (args) => (/\/node_modules\/mqtt(-packet)?\//.test(args.importer) ? { path: 'node:stream', external: true } : undefined));
  },
};

/** Options shared by every esbuild pass over the server's sources. */
function commonOptions(outfile, quiet) {
  return {
    absWorkingDir: ROOT,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    external: EXTERNAL_PACKAGES,
    // Stack traces map back to the sources with `node --enable-source-maps` (kept off at run time:
    // the maps cost memory on every start).
    sourcemap: 'linked',
    // Whitespace and syntax are minified, identifiers are not: names of functions and classes then stay
    // readable in the journal's stack traces and error types by themselves. keepNames would keep them
    // only by a defineProperty call on every function and class as its module loads: 50 ms of CPU at
    // every start here (640 -> 590 ms, about 0.4 s on a Pi core) and a megabyte of heap
    // (docs/performance.md, "Cold start").
    minifyWhitespace: true,
    minifySyntax: true,
    minifyIdentifiers: false,
    keepNames: false,
    legalComments: 'none',
    metafile: true,
    logLevel: quiet ? 'error' : 'warning',
    plugins: [compiledImportMetaUrl(outfile), dependencyEdits, mqttOnNodeStreams],
    banner: {
      js: [
        '// Built by scripts/build-server.mjs from the TypeScript sources: do not edit, run `npm run build`.',
        // Bundled CommonJS packages call require() for Node built-ins; an ES module has none of its own.
        "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
      ].join('\n'),
    },
  };
}

/**
 * The package specifiers ('fastify', 'drizzle-orm/better-sqlite3', ...) the server's own sources import
 * and a bundle of `entry` would contain (the external packages stay out).
 */
async function bundledPackageImports(entry, outfile) {
  const { metafile } = await build({ ...commonOptions(outfile, true), entryPoints: [entry], outfile, write: false, sourcemap: false });
  const specifiers = new Set();
  for (const [path, input] of Object.entries(metafile.inputs)) {
    if (path.startsWith('node_modules/')) continue;
    for (const imported of input.imports) {
      if (imported.path.startsWith('node_modules/') && !imported.external) specifiers.add(imported.original);
    }
  }
  return [...specifiers].sort();
}

/**
 * One module per package, not one 1.6 MB script. V8 compiles a module's top level in one go, and its
 * parser's working memory for a script that size peaked at about 13 MB of malloc; glibc keeps such a
 * peak resident for the life of the process (measured with bench/footprint.bench.ts: that was most of
 * the gap to a bare Node.js process). Modules are compiled one at a time, so the peak is now that of
 * the largest chunk. esbuild splits code only between entry points, so each bundled package becomes an
 * entry (dist/server/packages/<name>.js, re-exports that nothing loads at run time): the code of each
 * package, and of what several of them share, lands in a chunk of its own beside main.js, which imports
 * them as it always did.
 */
function packageEntryPoints(specifiers) {
  return Object.fromEntries(specifiers.map((specifier) => [`packages/${specifier.replaceAll('/', '__')}`, `package-entry:${specifier}`]));
}

/** Resolves `package-entry:<name>` (see packageEntryPoints) to a module re-exporting that package. */
const packageEntries = {
  name: 'package-entries',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^package-entry:/ }, (args) => ({ path: args.path.slice('package-entry:'.length), namespace: 'package-entry' }));
    pluginBuild.onLoad({ filter: /.*/, namespace: 'package-entry' }, (args) => ({ contents: `export * from ${JSON.stringify(args.path)};`, resolveDir: ROOT, loader: 'js' }));
  },
};

/**
 * Chunk names change with their contents: removes the chunks (and package entries) of earlier builds,
 * so dist/ holds what this build made and a stale chunk can never be loaded.
 */
function removeStaleChunks(outdir, metafile) {
  const written = new Set(Object.keys(metafile.outputs).map((output) => join(ROOT, output)));
  const candidates = [
    ...readdirSync(outdir).filter((name) => name.startsWith('chunk-')).map((name) => join(outdir, name)),
    ...(existsSync(join(outdir, 'packages')) ? readdirSync(join(outdir, 'packages')).map((name) => join(outdir, 'packages', name)) : []),
  ];
  for (const path of candidates) if (!written.has(path)) rmSync(path, { force: true });
}

/** Builds dist/server/main.js, admin.js and notify-failure.js (with their chunks) and the workers; resolves with esbuild's metafile of the server. */
export async function buildServer({ quiet = false } = {}) {
  const mainEntry = join(ROOT, 'server', 'main.ts');
  const mainOutfile = compiledPath(mainEntry);
  // The owner's recovery command (server/admin.ts, `npm run admin`) shares main's chunks.
  const adminEntry = join(ROOT, 'server', 'admin.ts');
  // The generator of the routes' schema code (server/http/generate-schema-code.ts), run below, shares them too.
  const generateSchemaCodeEntry = join(ROOT, 'server', 'http', 'generate-schema-code.ts');
  // The OnFailure unit's notifier (systemd/greenhouse-gateway-failure.service) shares them too.
  const notifyFailureEntry = join(ROOT, 'server', 'notify-failure.ts');
  const packageEntryPointsByName = packageEntryPoints(await bundledPackageImports(mainEntry, mainOutfile));
  const common = commonOptions(mainOutfile, quiet);
  const [server] = await Promise.all([
    build({
      ...common,
      entryPoints: { main: mainEntry, admin: adminEntry, 'notify-failure': notifyFailureEntry, 'generate-schema-code': generateSchemaCodeEntry, ...packageEntryPointsByName },
      outdir: dirname(mainOutfile),
      // Chunks sit beside main.js: compiledImportMetaUrl's paths are relative to that directory.
      splitting: true,
      chunkNames: 'chunk-[hash]',
      plugins: [...common.plugins, packageEntries],
    }),
    ...workerEntries().map((entry) => build({ ...commonOptions(compiledPath(entry), quiet), entryPoints: [entry], outfile: compiledPath(entry) })),
  ]);
  removeStaleChunks(dirname(mainOutfile), server.metafile);
  // The SQL migrations are applied at start from beside server/db/open.ts's compiled place.
  cpSync(join(ROOT, 'server', 'db', 'migrations'), join(ROOT, 'dist', 'server', 'db', 'migrations'), { recursive: true });
  generateSchemaCode();
  return server.metafile;
}

/**
 * Every route's validators and serializers as code generated once here, so the gateway never compiles a
 * schema on its event loop (server/http/precompiled-schemas.ts): the compiled generator builds the app
 * and writes them to dist/server/schemas/.
 */
function generateSchemaCode() {
  const generator = join(ROOT, 'dist', 'server', 'generate-schema-code.js');
  const result = spawnSync(process.execPath, [generator, join(ROOT, 'dist', 'server', 'schemas')], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`generating the routes' schema code failed:\n${result.stdout}${result.stderr}`);
}

/** Builds the server when dist/server/main.js is missing or older than its sources (for tests and benches). */
export async function buildServerIfStale() {
  const sourcesMs = newestMtimeMs(SERVER_SOURCES.map((path) => join(ROOT, path)));
  if (!existsSync(SERVER_ENTRY) || statSync(SERVER_ENTRY).mtimeMs < sourcesMs) await buildServer({ quiet: true });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const metafile = await buildServer();
  const bytes = Object.values(metafile.outputs).reduce((sum, output) => sum + output.bytes, 0);
  console.log(`server compiled: ${relative(ROOT, SERVER_ENTRY)} (${Object.keys(metafile.inputs).length} sources, ${(bytes / 1024).toFixed(0)} kB with source map)`);
}

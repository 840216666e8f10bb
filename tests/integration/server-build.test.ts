// The shape of the production build (scripts/build-server.mjs) that keeps the gateway's footprint down
// (bench/footprint.bench.ts measures it): the entry loads nothing before V8's settings are made, and the
// code is split into modules, one per package, instead of one script V8 must compile in one go.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain JavaScript build script without type declarations
import { buildServerIfStale, SERVER_ENTRY } from '../../scripts/build-server.mjs';

const ROOT = join(import.meta.dirname, '..', '..');
const SERVER_DIR = join(ROOT, 'dist', 'server');

/** The compiled modules beside main.js whose code contains `marker`. */
function modulesHolding(marker: string): string[] {
  const modules = readdirSync(SERVER_DIR).filter((name) => name.endsWith('.js'));
  return modules.filter((name) => readFileSync(join(SERVER_DIR, name), 'utf8').includes(marker));
}

/** The specifiers a module imports statically (`import ... from "x"` and `import "x"`), not `import()`. */
function staticImports(source: string): string[] {
  return [...source.matchAll(/(?:^|[;\s])import\s*(?:[\w$*{}\s,]+from\s*)?["']([^"']+)["']/g)].map((match) => match[1]!);
}

describe('the compiled server (npm run build)', () => {
  beforeAll(async () => {
    await buildServerIfStale();
  }, 60_000);

  it('main.js imports only Node built-ins before it sets the V8 flags; the server comes after, by import()', () => {
    const main = readFileSync(SERVER_ENTRY, 'utf8');
    expect(staticImports(main).every((specifier) => specifier.startsWith('node:'))).toBe(true);
    expect(main).toContain('--semi-space-growth-factor=1');
    expect(main.indexOf('--semi-space-growth-factor=1')).toBeLessThan(main.indexOf('import("./'));
  });

  it('is split into modules, each package in its own, and every module it imports is in dist/', () => {
    const chunks = readdirSync(SERVER_DIR).filter((name) => /^chunk-.*\.js$/.test(name));
    expect(chunks.length).toBeGreaterThan(10);
    const chunkHolding = (marker: string) => chunks.filter((name) => readFileSync(join(SERVER_DIR, name), 'utf8').includes(marker));
    // Fastify's code and the gateway's own live in different modules, and neither in main.js.
    const fastify = chunkHolding('FST_ERR_ROUTE_DUPLICATED_HANDLER');
    const gateway = chunkHolding('Greenhouse dashboard at');
    expect(fastify).toHaveLength(1);
    expect(gateway).toHaveLength(1);
    expect(gateway[0]).not.toBe(fastify[0]);

    for (const name of ['main.js', ...chunks]) {
      for (const specifier of staticImports(readFileSync(join(SERVER_DIR, name), 'utf8'))) {
        if (specifier.startsWith('./')) expect(existsSync(join(SERVER_DIR, specifier)), `${name} imports ${specifier}`).toBe(true);
      }
    }
  });

  it('leaves the schema compilers, glob, asn1.js and duplexify out of the bundle: required from node_modules only if ever called', () => {
    expect(modulesHolding('FST_ERR_ROUTE_DUPLICATED_HANDLER')).toHaveLength(1); // the check finds a bundled package
    expect(modulesHolding('class Ajv')).toEqual([]);
    expect(modulesHolding('class Glob')).toEqual([]);
    expect(modulesHolding('require("node:http2")').length).toBeGreaterThan(0); // deferred, not gone
    expect(modulesHolding('http2=__require("node:http2")')).toEqual([]);
    expect(modulesHolding('Duplexify.prototype._forward')).toEqual([]);
    expect(modulesHolding('require("duplexify")').length).toBeGreaterThan(0); // deferred, not gone
    expect(modulesHolding('BN.prototype._init')).toEqual([]); // bn.js, asn1.js's big numbers
    expect(modulesHolding('model??=__require("asn1.js").define(name,body)').length).toBeGreaterThan(0); // fast-jwt's, deferred
    // find-my-way compiles a node's prefix matcher when a request first reaches it, not as routes are added.
    expect(modulesHolding('this.matchPrefix=kind===NODE_TYPES.STATIC?matchPrefixOnFirstUse:null').length).toBeGreaterThan(0);
  });

  it("runs mqtt.js on Node's own streams, and leaves its browser timers and its SOCKS proxy code until asked for", () => {
    expect(modulesHolding('"node_modules/mqtt/build/lib/client.js"')).toHaveLength(1); // the check finds mqtt.js
    // mqtt.js and mqtt-packet each bring a copy of Node's streams (readable-stream); Node's own serve.
    expect(modulesHolding('readable-stream/lib/internal/streams/readable.js')).toEqual([]);
    // worker-timers (with @babel/runtime) keeps a browser tab's timers running; in Node.js it is required only if asked for.
    expect(modulesHolding('worker-timers-broker')).toEqual([]);
    expect(modulesHolding('__require("worker-timers").setInterval(...args)').length).toBeGreaterThan(0); // deferred, not gone
    // The socks package (with node:dns and node:assert) is loaded by a connection through a proxy only.
    expect(modulesHolding('socks_1={default:(...args)=>require_socks().default(...args)}')).toHaveLength(1);
  });

  it("takes from prom-client only the four classes the metrics use, not its index's default metrics and OpenTelemetry", () => {
    expect(modulesHolding('histogram.name}_bucket').length).toBeGreaterThan(0); // the check finds prom-client
    expect(modulesHolding('process_cpu_user_seconds_total')).toEqual([]);
    expect(modulesHolding('opentelemetry.js.api')).toEqual([]);
  });
});

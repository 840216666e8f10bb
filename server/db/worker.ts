import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

/**
 * Starts `name` (a module beside `fromUrl`, same extension) on a worker thread, for work that reads the
 * whole database (raw CSV export, backups) with its own better-sqlite3 connection while the main thread
 * keeps sampling and serving. From TypeScript sources (development, tests) the worker gets tsx's loader;
 * the compiled build runs the .js sibling with plain node.
 */
export function startModuleWorker(fromUrl: string, name: string, workerData: unknown): Worker {
  const extension = extname(fileURLToPath(fromUrl));
  const url = new URL(`./${name}${extension}`, fromUrl);
  if (extension !== '.ts') return new Worker(url, { workerData });
  // Node 20 does not apply an --import loader to a worker's own entry module: register tsx first.
  const tsxApi = import.meta.resolve('tsx/esm/api');
  const bootstrap = `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}); })`;
  return new Worker(bootstrap, { eval: true, workerData });
}

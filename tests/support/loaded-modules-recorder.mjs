// Loaded with `node --import` before a gateway under test: when the process exits, writes the Node.js
// built-ins it loaded and every CommonJS module it required (node_modules included) to the file named by
// GREENHOUSE_TEST_LOADED_MODULES_FILE, so a test can check what start-up and a few requests loaded; and
// whether the `reflect-metadata` polyfill is in place, the mark that the X.509 library (bundled, so not
// in the require cache) ran on the main thread.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const file = process.env.GREENHOUSE_TEST_LOADED_MODULES_FILE;
if (file) {
  const requireCache = createRequire(import.meta.url).cache;
  process.once('exit', () => {
    const builtins = process.moduleLoadList.filter((entry) => entry.startsWith('NativeModule ')).map((entry) => entry.slice('NativeModule '.length));
    writeFileSync(file, JSON.stringify({ builtins, required: Object.keys(requireCache), reflectMetadata: typeof Reflect.getMetadata === 'function' }));
  });
}

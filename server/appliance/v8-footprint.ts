import { setFlagsFromString } from 'node:v8';

/*
 * Imported first by server/main.ts, before any other module is loaded (the rest comes by import()):
 * a Pi Zero 2 W has 512 MB and the gateway shares it with the OS. Measured with
 * bench/footprint.bench.ts (idle RSS against a bare Node.js process in the same run), two V8 defaults
 * cost the gateway more than everything it loads, and a third holds the event loop on a Pi core:
 *
 * - The young generation grows to 2 x 16 MB semi-spaces during start-up (thousands of short-lived
 *   objects while fastify compiles its schemas) and the pages stay resident long after. Afterwards the
 *   gateway allocates little (a tick every few seconds, a few requests), so a young generation that
 *   does not grow costs a few more scavenges and nothing else.
 * - TurboFan optimises start-up code that then never runs again; its compilation zones are malloc'ed on
 *   background threads and glibc keeps those arenas. A larger interrupt budget (about 8x the default)
 *   leaves the one-off start-up code to the interpreter and baseline compiler while code that really
 *   runs hot (serialising long histories, the rule engine) is still optimised.
 * - When the gateway goes quiet after work, V8's memory reducer runs three full collections in a row.
 *   The first gives back a few MB; the second and third gave back 0.1-0.4 MB each and held the event
 *   loop 70-190 ms each on a Pi core (a full collection is a pause of the main thread there; measured
 *   with --trace-gc in bench/pi-core.bench.ts's quota). One is enough.
 *
 * These flags only change when V8 grows, optimises or collects, never what the program does. They are
 * set at run time rather than on the node command line so `node dist/server/main.js`, `npm start` and
 * the unit all get them.
 */
const FOOTPRINT_FLAGS = ['--semi-space-growth-factor=1', '--interrupt-budget=1048576', '--memory-reducer-single-gc'];

for (const flag of FOOTPRINT_FLAGS) setFlagsFromString(flag);

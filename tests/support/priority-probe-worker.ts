// Worker-thread probe for tests/integration/worker-priority.test.ts: reports its own thread's priority
// as its module is first evaluated, before it could lower it itself, and the heap limits it was given.
import { readlinkSync } from 'node:fs';
import { getPriority } from 'node:os';
import { parentPort, resourceLimits } from 'node:worker_threads';

const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
parentPort!.postMessage({ nice: getPriority(tid), youngGenerationMb: resourceLimits.maxYoungGenerationSizeMb });

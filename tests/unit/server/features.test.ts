import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { startFeatures, stopFeatures, type Feature } from '../../../server/features.ts';

function capturingLogger() {
  const lines: Array<{ level: number; msg: string; featureName?: string }> = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines };
}

describe('feature start/stop', () => {
  it('starts in order and stops in reverse, each on its own: one that throws is logged by name', async () => {
    const calls: string[] = [];
    const feature = (name: string, failOn?: 'start' | 'stop'): Feature => ({
      name,
      async start() {
        calls.push(`start ${name}`);
        if (failOn === 'start') throw new Error(`${name} broke`);
      },
      async stop() {
        calls.push(`stop ${name}`);
        if (failOn === 'stop') throw new Error(`${name} broke`);
      },
    });
    const features = [feature('a'), feature('b', 'start'), feature('c', 'stop'), { name: 'routes-only' }];
    const { logger, lines } = capturingLogger();

    // The names of those that failed to start go to health (it says degraded, naming them).
    expect(await startFeatures(features, logger)).toEqual(['b']);
    await stopFeatures(features, logger);

    expect(calls).toEqual(['start a', 'start b', 'start c', 'stop c', 'stop b', 'stop a']);
    const errors = lines.filter((l) => l.level >= 50).map((l) => [l.featureName, l.msg]);
    expect(errors).toEqual([
      ['b', 'b failed to start'],
      ['c', 'c failed to stop'],
    ]);
    expect(lines.filter((l) => l.level === 30).map((l) => l.msg)).toEqual(['a started', 'c started', 'b stopped', 'a stopped']);
  });
});

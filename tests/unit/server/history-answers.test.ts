import { describe, expect, it } from 'vitest';
import { HistoryAnswers } from '../../../server/sensors/history-answers.ts';

describe('HistoryAnswers', () => {
  it('computes once per question, data version and time slot', async () => {
    const answers = new HistoryAnswers();
    let computed = 0;
    const compute = async () => `{"n":${++computed}}`;
    const ask = (question: string, dataVersion: number, nowMs: number) => answers.get(question, { dataVersion, nowMs, slotMs: 60_000 }, compute).then(String);

    expect(await ask('historical|168', 1, 0)).toBe('{"n":1}');
    expect(await ask('historical|168', 1, 59_999)).toBe('{"n":1}');
    expect(await ask('historical|168', 2, 59_999)).toBe('{"n":2}'); // data committed since
    expect(await ask('historical|168', 2, 60_000)).toBe('{"n":3}'); // the window moved a bucket
    expect(await ask('stats|168', 2, 60_000)).toBe('{"n":4}'); // another question
    expect(await ask('historical|168', 2, 60_001)).toBe('{"n":3}');
  });

  it('keeps at most maxEntries answers, dropping the least recently computed', async () => {
    const answers = new HistoryAnswers(2);
    let computed = 0;
    const ask = (question: string) => answers.get(question, { dataVersion: 1, nowMs: 0, slotMs: 1 }, async () => `${++computed}`).then(String);
    await ask('a');
    await ask('b');
    await ask('c');
    expect(await ask('b')).toBe('2');
    expect(await ask('a')).toBe('4');
  });

  it('lets askers of a question still being computed share that one computation', async () => {
    const answers = new HistoryAnswers();
    let computed = 0;
    let finish!: () => void;
    const gate = new Promise<void>((resolve) => (finish = resolve));
    const compute = async () => {
      computed++;
      await gate;
      return '{"points":[]}';
    };
    const six = Array.from({ length: 6 }, () => answers.get('historical|168', { dataVersion: 1, nowMs: 0, slotMs: 300_000 }, compute));
    finish();
    const bodies = await Promise.all(six);
    expect(computed).toBe(1);
    expect(bodies.map(String)).toEqual(Array(6).fill('{"points":[]}'));
  });

  it('keeps no failed computation: the next asker computes again', async () => {
    const answers = new HistoryAnswers();
    const version = { dataVersion: 1, nowMs: 0, slotMs: 60_000 };
    await expect(answers.get('stats|168', version, async () => Promise.reject(new Error('SQLITE_BUSY')))).rejects.toThrow('SQLITE_BUSY');
    expect(String(await answers.get('stats|168', version, async () => '{"ok":true}'))).toBe('{"ok":true}');
  });
});

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
});

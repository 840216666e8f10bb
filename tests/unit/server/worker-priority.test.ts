import { describe, expect, it } from 'vitest';
import { threadStartedBetween } from '../../../server/db/worker-priority.ts';

describe('threadStartedBetween', () => {
  it('names the one thread that appeared', () => {
    expect(threadStartedBetween([100, 101, 102], [100, 101, 102, 140])).toBe(140);
  });

  it('names it when another thread ended meanwhile', () => {
    expect(threadStartedBetween([100, 101, 102], [100, 102, 140])).toBe(140);
  });

  it('names none when none appeared', () => {
    expect(threadStartedBetween([100, 101], [100, 101])).toBeNull();
  });

  it('names none when several appeared at once: none is lowered on a guess', () => {
    expect(threadStartedBetween([100, 101], [100, 101, 140, 141])).toBeNull();
  });
});

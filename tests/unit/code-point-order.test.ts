import { describe, expect, it } from 'vitest';
import { byCodePoint } from '../../common/code-point-order.ts';

describe('byCodePoint', () => {
  it('orders ISO dates and timestamped file names as their characters do', () => {
    expect(['2026-11-24', '2026-02-01', '2025-12-31'].sort(byCodePoint)).toEqual(['2025-12-31', '2026-02-01', '2026-11-24']);
    expect(['greenhouse-b.db', 'Greenhouse-a.db', 'greenhouse-a.db'].sort(byCodePoint)).toEqual(['Greenhouse-a.db', 'greenhouse-a.db', 'greenhouse-b.db']);
    expect(byCodePoint('same', 'same')).toBe(0);
  });
});

import { describe, expect, it } from 'vitest';
import { cpusOutside } from '../../../bench/cpu-quota.ts';

describe("the Pi-core bench keeps its own processes off the gateway's CPUs", () => {
  it('leaves every other CPU to the bench, whatever form the list takes', () => {
    expect(cpusOutside('0', 2)).toEqual([1]);
    expect(cpusOutside('0', 4)).toEqual([1, 2, 3]);
    expect(cpusOutside('0,2', 4)).toEqual([1, 3]);
    expect(cpusOutside('1-2', 4)).toEqual([0, 3]);
  });

  it('has nowhere to go when the gateway holds every CPU', () => {
    expect(cpusOutside('0', 1)).toEqual([]);
    expect(cpusOutside('0-1', 2)).toEqual([]);
  });
});

/**
 * mulberry32: a tiny 32-bit PRNG (Tommy Ettinger, public domain). Not cryptographic; chosen because it
 * is fast, has a 32-bit seed and gives the same sequence on every platform, which makes the simulator
 * deterministic for a seed.
 */
export type Random = () => number;

export function mulberry32(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Normally distributed sample (Box-Muller), for sensor noise. */
export function gaussian(random: Random, sd: number): number {
  const u = 1 - random(); // (0, 1]: log(0) would be -Infinity
  const v = random();
  return sd * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

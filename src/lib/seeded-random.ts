/**
 * A small seeded pseudo-random generator (mulberry32): the same seed gives the same sequence, so
 * benchmarks, bootstrap intervals and tests are reproducible. Not for anything secret.
 *
 * @example
 * const random = seededRandom(42);
 * random(); // a float in [0, 1), the same on every run
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

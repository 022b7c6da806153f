/**
 * Seed 003's generator, bit for bit: a 32-bit integer hash of the seed, then a linear
 * congruential sequence. Python's `& 0xFFFFFFFF` on unbounded integers is reproduced with
 * Math.imul (exact low 32 bits of the product) and `>>> 0` (unsigned reinterpretation).
 *
 *   def rng(t):
 *       x = ((t ^ (t >> 16)) * 2246822507) & M32
 *       x = ((x ^ (x >> 13)) * 3266489909) & M32
 *       s = (x ^ (x >> 16)) & M32
 *       next: s = (s * 1664525 + 1013904223) & M32; return s / 4294967296
 */
export function seededRng(t: number): () => number {
  let x = Math.imul((t ^ (t >>> 16)) >>> 0, 2246822507) >>> 0;
  x = Math.imul((x ^ (x >>> 13)) >>> 0, 3266489909) >>> 0;
  let s = (x ^ (x >>> 16)) >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

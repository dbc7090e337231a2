/**
 * Seeded randomness for the simulator: 32-bit hashes, a mulberry32 generator and smooth value
 * noise. Everything here is a pure function of its arguments (the generator of its seed), so a
 * window regenerated later (a retry, a backfill, a test) yields the same numbers.
 */

/** FNV-1a hash of a string, as an unsigned 32-bit integer. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let k = 0; k < text.length; k++) {
    h ^= text.charCodeAt(k);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The murmur3 finaliser: spreads every input bit over the whole word. */
function fmix32(value: number): number {
  let h = value | 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * Combines a hash with one more integer key. Integers beyond 32 bits are reduced modulo 2^32
 * (`>>> 0`), which is enough for window and knot indices.
 */
export function mix(hash: number, key: number): number {
  return fmix32((hash ^ Math.imul((key >>> 0) ^ 0x5bd1e995, 0x9e3779b1)) + 0x6a09e667);
}

/** Maps a hash to a number in [0, 1). */
export function unit(hash: number): number {
  return (hash >>> 0) / 4294967296;
}

/** Maps a hash to a number in [-1, 1). */
export function signedUnit(hash: number): number {
  return (hash >>> 0) / 2147483648 - 1;
}

/**
 * Smooth value noise in [-1, 1]: random values at knots `periodMs` apart, joined by a smoothstep.
 * Sums of a few periods look like a bounded random walk and stay a pure function of time.
 */
export function valueNoise(key: number, timeMs: number, periodMs: number): number {
  const x = timeMs / periodMs;
  const knot = Math.floor(x);
  const t = x - knot;
  const a = signedUnit(mix(key, knot));
  const b = signedUnit(mix(key, knot + 1));
  return a + (b - a) * t * t * (3 - 2 * t);
}

/**
 * The mulberry32 generator. One instance is reseeded per cell and window instead of allocating a
 * new one, which keeps the backfill fast path free of garbage.
 */
export class Mulberry32 {
  #state = 0;

  constructor(seed = 0) {
    this.#state = seed | 0;
  }

  /** Restarts the sequence at `seed`. */
  reseed(seed: number): void {
    this.#state = seed | 0;
  }

  /** The next number in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) | 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** The next number in [-1, 1). */
  signed(): number {
    return this.next() * 2 - 1;
  }

  /** The next number in [low, high). */
  between(low: number, high: number): number {
    return low + (high - low) * this.next();
  }

  /** The next integer in [0, count). */
  index(count: number): number {
    return Math.floor(this.next() * count);
  }
}

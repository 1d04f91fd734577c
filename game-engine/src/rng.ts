/**
 * Seeded PRNG (sfc32) whose whole state is four unsigned 32-bit integers, so it lives inside the
 * JSON game state and gives the same numbers in Node and in every browser.
 */
export type RngState = [number, number, number, number];

/** Hashes a number or string seed (cyrb128) into an sfc32 state, then warms the generator up. */
export function seedRng(seed: number | string): RngState {
  const text = String(seed);
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < text.length; i++) {
    const k = text.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  const rng = new Rng([h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0]);
  for (let i = 0; i < 12; i++) rng.next();
  return rng.toState();
}

/** A mutable working copy of an RngState, used inside one `apply` call and written back at the end. */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(state: RngState) {
    [this.a, this.b, this.c, this.d] = state;
  }

  /** Next unsigned 32-bit integer. */
  next(): number {
    // sfc32 as published by Chris Doty-Humphrey: tmp = a + b + counter++.
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Float in [0, 1). Exact: a uint32 divided by 2^32. */
  float(): number {
    return this.next() / 4294967296;
  }

  /** Integer in [0, n). */
  int(n: number): number {
    return Math.floor((this.next() * n) / 4294967296);
  }

  /** Index chosen with probability proportional to weights (non-negative numbers). */
  weighted(weights: readonly number[]): number {
    let total = 0;
    for (const w of weights) total += w;
    if (total <= 0) return this.int(weights.length);
    let r = this.float() * total;
    for (let i = 0; i < weights.length; i++) {
      r -= weights[i] ?? 0;
      if (r < 0) return i;
    }
    return weights.length - 1;
  }

  toState(): RngState {
    return [this.a >>> 0, this.b >>> 0, this.c >>> 0, this.d >>> 0];
  }
}

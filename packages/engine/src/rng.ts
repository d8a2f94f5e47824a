/**
 * The engine's own pseudo-random generator: xoshiro128** seeded through splitmix32, so a seed gives
 * the same numbers on every platform and Node version (Math.random cannot be seeded). Its state can
 * be saved and restored, so a resumed training run draws what the unbroken run would have.
 */

/** The generator's state: four uint32 words. */
export type RngWords = [number, number, number, number];

/** A seeded generator of uint32s, uniform floats in [0, 1) and standard normals. */
export class Rng {
  private s0: number;
  private s1: number;
  private s2: number;
  private s3: number;
  private spareNormal: number | null = null;

  /** `seed` is any integer (only its low 32 bits matter); `stream` gives independent sequences per seed. */
  constructor(seed: number, stream = 0) {
    [this.s0, this.s1, this.s2, this.s3] = splitmix32((seed ^ Math.imul(stream + 1, 0x9e3779b9)) >>> 0);
  }

  /** A generator continuing from `state()`'s words. */
  static fromState(state: Readonly<RngWords>): Rng {
    const rng = new Rng(0);
    [rng.s0, rng.s1, rng.s2, rng.s3] = state;
    return rng;
  }

  /** The uniform stream's state, for `fromState` (a normal's spare half, see `normal`, is not in it). */
  state(): RngWords {
    return [this.s0 >>> 0, this.s1 >>> 0, this.s2 >>> 0, this.s3 >>> 0];
  }

  /** The next uint32. */
  nextU32(): number {
    const result = Math.imul(rotl(Math.imul(this.s1, 5), 7), 9) >>> 0;
    const t = this.s1 << 9;
    this.s2 ^= this.s0;
    this.s3 ^= this.s1;
    this.s1 ^= this.s2;
    this.s0 ^= this.s3;
    this.s2 ^= t;
    this.s3 = rotl(this.s3, 11);
    return result;
  }

  /** A uniform float in [0, 1) with 32 random bits. */
  nextFloat(): number {
    return this.nextU32() / 4294967296;
  }

  /** A standard normal (Box-Muller; the second value of each pair is kept for the next call). */
  normal(): number {
    if (this.spareNormal !== null) {
      const spare = this.spareNormal;
      this.spareNormal = null;
      return spare;
    }
    const u1 = 1 - this.nextFloat(); // (0, 1]: log(0) never happens
    const u2 = this.nextFloat();
    const r = Math.sqrt(-2 * Math.log(u1));
    this.spareNormal = r * Math.sin(2 * Math.PI * u2);
    return r * Math.cos(2 * Math.PI * u2);
  }
}

/** Four state words from `x` by splitmix32, which spreads a poor seed (0, 1, 2, ...) over them all. */
export function splitmix32(x: number): RngWords {
  const next = (): number => {
    x = (x + 0x9e3779b9) >>> 0;
    let z = x;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
  return [next(), next(), next(), next()];
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}

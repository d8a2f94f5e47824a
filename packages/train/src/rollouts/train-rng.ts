/**
 * The run's random generator (xoshiro128**, seeded through splitmix32) with a state that can be
 * written into a checkpoint and read back, so a resumed run draws what the unbroken run would have.
 */
import { z } from "zod";

/** The generator's state: four uint32 words. */
export const RngState = z.tuple([z.number().int(), z.number().int(), z.number().int(), z.number().int()]);
export type RngState = z.infer<typeof RngState>;

/** A seeded generator whose state can be saved (`state`) and restored (`TrainRng.fromState`). */
export class TrainRng {
  private constructor(private s: [number, number, number, number]) {}

  /** A generator seeded by `seed` (any integer). */
  static fromSeed(seed: number): TrainRng {
    let x = (seed ^ Math.floor(seed / 2 ** 32)) >>> 0;
    const next = (): number => {
      x = (x + 0x9e3779b9) >>> 0;
      let z = x;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) >>> 0;
    };
    return new TrainRng([next(), next(), next(), next()]);
  }

  /** A generator continuing from a saved state. */
  static fromState(state: RngState): TrainRng {
    return new TrainRng([...state]);
  }

  /** The state to save. */
  state(): RngState {
    return [...this.s];
  }

  /** A uniform float in [0, 1). */
  nextFloat(): number {
    const [s0, s1, s2, s3] = this.s;
    const result = Math.imul(rotl(Math.imul(s1, 5), 7), 9) >>> 0;
    const t = s1 << 9;
    let n2 = s2 ^ s0;
    let n3 = s3 ^ s1;
    const n1 = s1 ^ n2;
    const n0 = s0 ^ n3;
    n2 ^= t;
    n3 = rotl(n3, 11);
    this.s = [n0 >>> 0, n1 >>> 0, n2 >>> 0, n3 >>> 0];
    return result / 4294967296;
  }
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}

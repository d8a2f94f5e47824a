/**
 * The run's random generator: the engine's (xoshiro128** seeded through splitmix32), seeded as a
 * run seeds it, with its state written into a checkpoint and read back, so a resumed run draws what
 * the unbroken run would have.
 */
import { Rng, splitmix32 } from "@vf-rl/engine";
import { z } from "zod";

/** The generator's state as a checkpoint keeps it: four uint32 words (`Rng.state()`). */
export const RngState = z.tuple([z.number().int(), z.number().int(), z.number().int(), z.number().int()]);
export type RngState = z.infer<typeof RngState>;

/** A generator seeded by `seed` (any integer; its high bits are folded into the low 32). */
export function trainRng(seed: number): Rng {
  return Rng.fromState(splitmix32((seed ^ Math.floor(seed / 2 ** 32)) >>> 0));
}

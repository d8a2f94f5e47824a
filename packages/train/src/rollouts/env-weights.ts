/**
 * How much of the prompt mixture each [[env]] gets: prime-rl's per-source `ratio`, normalised over
 * the environments (ratios 3 and 1 draw three prompts of the first for one of the second, whatever
 * their row counts). A config without ratios keeps vf's earlier mixture, in proportion to row
 * counts, so its runs draw exactly the prompts they drew before; the config rules refuse ratios on
 * some environments only.
 */
import type { EnvConfig } from "../config/train-config.ts";

/** Each environment's weight: its ratio when every [[env]] sets one; undefined (row counts) otherwise. */
export function envWeights(envs_E: readonly Pick<EnvConfig, "ratio">[]): number[] | undefined {
  const ratios_E = envs_E.map((env) => env.ratio);
  return ratios_E.every((ratio) => ratio !== undefined) ? ratios_E : undefined;
}

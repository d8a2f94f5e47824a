// The same GRPO run as examples/rl-loop.ts, through vf train: a config file and one call, which adds
// sampling the next batch while training on this one, difficulty filtering, checkpoints and exact
// resume, evaluation, metrics.jsonl and the reward curve. From the command line, the same run is
//
//   vf train examples/rl-recipe.toml [--key.path value ...]
//   npx tsx examples/rl-recipe.ts [--key.path value ...]
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseOverrides } from "@vf-rl/core/config";
import { loadTrainConfig, type RunTrainingResult, runTraining } from "@vf-rl/train";

/** The recipe's config file. */
export const RECIPE = fileURLToPath(new URL("./rl-recipe.toml", import.meta.url));

/** Trains as the recipe says, with `--key.path value` overrides; returns where the run is. */
export async function rlRecipe(
  args: string[] = [],
  log?: (line: string) => void,
): Promise<RunTrainingResult> {
  const config = await loadTrainConfig(RECIPE, parseOverrides(args));
  return runTraining({ config, ...(log ? { log } : {}) });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await rlRecipe(process.argv.slice(2));
  console.log(`reward curve: ${result.curve.html}`);
}

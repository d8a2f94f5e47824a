/**
 * The paths of one evaluation, checked before any evaluation starts (from flags or a config's
 * blocks alike), so a typo is one line at once rather than a run that quietly ignores it
 * (--env-dir-path naming a file) or a model id sent to OpenAI (-m naming a missing folder). What
 * only connecting can tell (a server that does not answer, a rejected key) is connect-model.ts's.
 */
import { UsageError } from "../../cli-errors.ts";
import { checkInputPath } from "../../path-checks.ts";
import type { EvalSpec } from "./eval-spec.ts";

const ENV_DIR_FIX = "name the folder that holds your environment packages (default ./environments)";
const MODEL_FIX =
  "give the checkpoint folder vf train or vf sft printed, or a model id (with -b for a server that names models by path)";

/** Throws a `UsageError` for the first path of `spec` that cannot work. */
export async function checkSpecPaths(spec: EvalSpec): Promise<void> {
  if (spec.envDirPath !== undefined) {
    const options = { label: "--env-dir-path", accept: "folder", fix: ENV_DIR_FIX } as const;
    if ((await checkInputPath(spec.envDirPath, options)) === "missing") {
      throw new UsageError(`--env-dir-path ${spec.envDirPath} does not exist: ${ENV_DIR_FIX}`);
    }
  }
  if (spec.endpointsPath !== undefined) {
    await checkInputPath(spec.endpointsPath, {
      label: "-e/--endpoints-path",
      fix: "name the endpoint registry, a TOML file such as configs/endpoints.toml",
    });
  }
  // A model written as a path (/x, ./x, ../x, ~/x) is a checkpoint folder, unless a server is
  // named (-b, -p): vLLM names a model by the path it was loaded from.
  const served = spec.baseUrl !== undefined || spec.provider !== undefined;
  if (spec.model !== undefined && !served && /^(\/|\.{1,2}\/|~)/.test(spec.model)) {
    const options = { label: "-m", accept: "folder", fix: MODEL_FIX } as const;
    if ((await checkInputPath(spec.model, options)) === "missing") {
      throw new UsageError(`-m ${spec.model} does not exist: ${MODEL_FIX}`);
    }
  }
}

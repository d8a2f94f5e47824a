/**
 * What `vf train` says when its config file is not there: in a new project that is usually a config
 * of vf's own (configs/train/reverse-text.toml, as the examples have it), which `vf setup` writes.
 */
import { existsSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { dirname } from "node:path";
import { UserError } from "@vf-rl/core/errors";
import { vfCommand } from "../../vf-command.ts";
import { shippedTrainConfigs } from "../setup/workspace-files.ts";

/** The config file `path` does not exist. */
export class TrainConfigNotFoundError extends UserError {
  constructor(
    readonly path: string,
    hint: string,
  ) {
    super(`the training config ${path} does not exist: ${hint}`);
  }
}

/** The error for a missing config `path`: the configs beside it if its folder has some, else what vf setup writes. */
export async function trainConfigNotFound(path: string): Promise<TrainConfigNotFoundError> {
  const folder = dirname(path);
  const beside = existsSync(folder)
    ? (await readdir(folder).catch(() => [] as string[])).filter((name) => name.endsWith(".toml")).sort()
    : [];
  if (beside.length > 0) {
    return new TrainConfigNotFoundError(path, `${folder} holds ${beside.join(", ")}: check the name`);
  }
  const shipped = await shippedTrainConfigs();
  const names = shipped.length > 0 ? ` (${shipped.join(", ")})` : "";
  return new TrainConfigNotFoundError(
    path,
    `${vfCommand("setup")} writes vf's training configs${names} into configs/train, or give the path of your own`,
  );
}

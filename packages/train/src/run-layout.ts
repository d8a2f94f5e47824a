/**
 * Where a training run keeps its files, all under the run folder (`output_dir`):
 *
 *   config.toml             the resolved config the run started with
 *   metrics.jsonl           one row per step and per evaluation (metrics/metrics-file.ts)
 *   weights/step_N/         the policy after N steps (config.json, model.safetensors), for the
 *                           inference server to load; only those it can still load are
 *                           kept (loop/off-policy.ts)
 *   checkpoints/step_N/     what --resume needs (checkpoints/run-checkpoint.ts)
 *   reward-curve.svg/.html  the reward curve (vf plot RUN_DIR redraws it)
 */
import { join } from "node:path";

/** The paths of one run folder. */
export class RunLayout {
  constructor(readonly dir: string) {}

  get configFile(): string {
    return join(this.dir, "config.toml");
  }

  get metricsFile(): string {
    return join(this.dir, "metrics.jsonl");
  }

  get weightsDir(): string {
    return join(this.dir, "weights");
  }

  /** The policy weights after `version` steps. */
  weights(version: number): string {
    return join(this.weightsDir, `step_${version}`);
  }

  get checkpointsDir(): string {
    return join(this.dir, "checkpoints");
  }

  /** The checkpoint taken after `step` steps. */
  checkpoint(step: number): string {
    return join(this.checkpointsDir, `step_${step}`);
  }

  get curveSvg(): string {
    return join(this.dir, "reward-curve.svg");
  }

  get curveHtml(): string {
    return join(this.dir, "reward-curve.html");
  }
}

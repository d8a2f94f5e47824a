/**
 * `vf plot RUN_DIR`: draws a training run's reward curve from its metrics.jsonl, at any time, and
 * sums up its [sft] stage when it has one (whose loss curve is sft/loss-curve.svg).
 */
import type { SftRow } from "@vf-rl/train";
import type { Command } from "commander";
import type { Output } from "../../terminal/output.ts";

export function registerPlot(program: Command, io: Output): void {
  program
    .command("plot")
    .description("draw the reward curve of a vf train run (reward-curve.svg and .html in the run folder)")
    .argument("<run-dir>", "a vf train output_dir, e.g. outputs/train/reverse-text")
    .addHelpText(
      "after",
      "\nExample:\n  vf plot outputs/train/reverse-text    then open outputs/train/reverse-text/reward-curve.html",
    )
    .action(async (dir: string) => {
      const { RunLayout, readMetrics, writeRewardCurve } = await import("@vf-rl/train");
      const layout = new RunLayout(dir);
      const curve = await writeRewardCurve(layout);
      const { rows, skipped } = await readMetrics(layout.metricsFile);
      const sft = rows.filter((r): r is SftRow => r.kind === "sft");
      const lastSft = sft.at(-1);
      if (lastSft !== undefined) {
        const evalLoss = sft.findLast((r) => r.eval_loss !== undefined)?.eval_loss;
        const held = evalLoss !== undefined ? `, eval loss ${evalLoss.toFixed(4)}` : "";
        io.out(`sft stage: ${sft.length} steps, last loss ${lastSft.loss.toFixed(4)}${held}`);
      }
      const train = rows.filter((r) => r.kind === "train");
      const last = train.at(-1);
      io.out(
        `${train.length} steps${last?.kind === "train" ? `, last train reward ${last.reward_mean.toFixed(3)}` : ""}`,
      );
      for (const row of rows) {
        if (row.kind === "eval") {
          io.out(
            `eval @ step ${row.step} ${row.env}: ${row.reward_mean.toFixed(3)} [${row.ci95_low.toFixed(3)}, ${row.ci95_high.toFixed(3)}]`,
          );
        }
      }
      if (skipped > 0) io.err(`note: skipped ${skipped} unreadable lines of ${layout.metricsFile}`);
      io.out(`reward curve: ${curve.svg}`);
      io.out(`page: ${curve.html}`);
    });
}

/** What `vf view` does: the run list as JSON or lines, or the interactive browser on a terminal. */
import { listRuns, readRun, summarizeRun } from "@vf-rl/core/results";
import type { Output } from "../../terminal/output.ts";
import { decodeKeys } from "./decode-keys.ts";
import { bodyHeight, renderViewer } from "./render-viewer.ts";
import { initialState, press, type ViewerState } from "./viewer-model.ts";

export async function runView(dir: string, flags: { json?: boolean }, io: Output): Promise<void> {
  const runs = await listRuns(dir);
  if (flags.json) {
    io.out(JSON.stringify(await runsAsJson(runs), null, 2));
    return;
  }
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    for (const run of runs) {
      io.out(
        run.type === "run"
          ? `${run.dir}  ${run.envId}  ${run.model}  ${run.date}  reward ${run.avgReward.toFixed(3)}  ${run.rows} rollouts  ${run.status}`
          : `${run.dir}  unreadable: ${run.message}`,
      );
    }
    return;
  }
  await browse(initialState(runs));
}

async function runsAsJson(runs: Awaited<ReturnType<typeof listRuns>>) {
  return Promise.all(
    runs.map(async (entry) => {
      if (entry.type === "unreadable") return { dir: entry.dir, run_id: entry.runId, error: entry.message };
      const run = await readRun(entry.dir);
      const summary = summarizeRun(run.records, { rolloutsPerExample: run.metadata.rollouts_per_example });
      return {
        dir: entry.dir,
        ...run.metadata,
        ...summary.aggregates,
        run_id: entry.runId,
        date: entry.date,
        rows: run.records.length,
        status: run.metadata.status,
        reward_std: summary.reward.std,
        warnings: run.warnings.length,
      };
    }),
  );
}

/** The interactive loop: alternate screen, raw keys, one redraw per key. */
async function browse(start: ViewerState): Promise<void> {
  const stdin = process.stdin;
  const stdout = process.stdout;
  let state = start;
  const size = () => ({ width: stdout.columns || 100, height: stdout.rows || 30, color: true });
  const draw = () => stdout.write(`\x1b[H\x1b[2J${renderViewer(state, size()).join("\r\n")}`);
  stdout.write("\x1b[?1049h\x1b[?25l");
  stdin.setRawMode(true);
  stdin.setEncoding("utf8");
  stdin.resume();
  try {
    draw();
    await new Promise<void>((resolve) => {
      let busy = Promise.resolve();
      stdout.on("resize", draw);
      stdin.on("data", (data: string) => {
        busy = busy.then(async () => {
          for (const key of decodeKeys(data)) {
            state = await press(state, key, bodyHeight(size()));
            if (state.quit) return resolve();
          }
          draw();
        });
      });
    });
  } finally {
    stdin.setRawMode(false);
    stdin.pause();
    stdout.write("\x1b[?25h\x1b[?1049l");
  }
}

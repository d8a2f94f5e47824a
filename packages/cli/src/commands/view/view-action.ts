/**
 * What `vf view` does: the run list as JSON or lines, the interactive browser on a terminal, or
 * (--web) the web pages.
 * Exit status: 1 when no run could be read (an empty folder included); with --json, also when any
 * run is unreadable (each listed with its "error"), so a script notices.
 */
import { UserError } from "@vf-rl/core/errors";
import { listRuns, type RunEntry, readRun, summarizeRun } from "@vf-rl/core/results";
import { UsageError } from "../../cli-errors.ts";
import { type Output, wantsColour } from "../../terminal/output.ts";
import { decodeKeys } from "./decode-keys.ts";
import { bodyHeight, renderViewer, rolloutLayout } from "./render-viewer.ts";
import { initialState, press, type ViewerState } from "./viewer-model.ts";

/** Nothing under the folder could be read as a run. */
export class NoReadableRunsError extends UserError {}

export async function runView(
  dir: string,
  flags: { json?: boolean; web?: boolean; port?: number },
  io: Output,
): Promise<void> {
  if (flags.port !== undefined && !flags.web)
    throw new UsageError("--port is the port of --web: add --web, or leave --port out");
  if (flags.web && flags.json)
    throw new UsageError("--web and --json are two ways to show the runs: give one of them");
  const runs = await listRuns(dir);
  if (flags.web) {
    failIfNothingRead(dir, runs);
    const { serveWeb } = await import("./web/serve-web.ts");
    return serveWeb(dir, flags.port === undefined ? {} : { port: flags.port }, io);
  }
  const unreadable = runs.filter((run) => run.type === "unreadable").length;
  if (flags.json) {
    io.out(JSON.stringify(await runsAsJson(runs), null, 2));
    failIfNothingRead(dir, runs);
    if (unreadable > 0) {
      throw new UserError(
        `${unreadable} of ${runs.length} runs under ${dir} could not be read (see their "error" fields): repair or delete those folders`,
      );
    }
    return;
  }
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    for (const run of runs) io.out(listLine(run));
    for (const run of runs) {
      if (run.type === "run" && run.duplicates > 0) {
        io.err(
          `warning: ${run.dir} holds ${run.duplicates} duplicate rows (two writers appended to it): each rollout is counted once; resume the run to remove the copies`,
        );
      }
    }
    failIfNothingRead(dir, runs);
    return;
  }
  failIfNothingRead(dir, runs);
  await browse(initialState(runs));
}

function listLine(run: RunEntry): string {
  if (run.type === "unreadable") return `${run.dir}  unreadable: ${run.message}`;
  const duplicates = run.duplicates > 0 ? `  (${run.duplicates} duplicate rows)` : "";
  const harness = run.harness ? `  ${run.harness} harness` : "";
  return `${run.dir}  ${run.envId}  ${run.model}${harness}  ${run.date}  reward ${run.avgReward.toFixed(3)}  ${run.rows} rollouts  ${run.status}${duplicates}`;
}

function failIfNothingRead(dir: string, runs: RunEntry[]): void {
  if (runs.some((run) => run.type === "run")) return;
  if (runs.length === 0) {
    throw new NoReadableRunsError(
      `no runs under ${dir}: save one with vf eval <env> -s, or pass the folder that holds evals/`,
    );
  }
  throw new NoReadableRunsError(
    `none of the ${runs.length} runs under ${dir} could be read (each is listed with its reason): repair or delete those folders`,
  );
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
        duplicates: entry.duplicates,
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
  const color = wantsColour(stdout);
  const size = () => ({ width: stdout.columns || 100, height: stdout.rows || 30, color });
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
            state = await press(state, key, bodyHeight(size()), rolloutLayout(state, size()));
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

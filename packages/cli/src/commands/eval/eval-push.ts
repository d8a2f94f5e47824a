/**
 * Eval reports on the Hub: `vf eval ... --push` uploads each finished run, and `vf eval push RUN_DIR`
 * uploads a saved one. A report is pinned to the exact environment version the run used: the content
 * hash of the package folder the environment id finds, the same hash the Hub gave that version.
 * Uploads are idempotent per run id, and an interrupted one resumes.
 */
import { realpathSync } from "node:fs";
import { basename, dirname } from "node:path";
import {
  type EvaluateResult,
  type FoundEnvironment,
  findEnvironment,
  listEnvironments,
  readRun,
  UserError,
} from "@vf/core";
import type { HubClient, PushReportResult } from "@vf/hub/client";
import type { Command } from "commander";
import type { Output } from "../../terminal/output.ts";
import { connectHub, type HubFlags, hubUrlFlag, loadHubClient, withHubFlags } from "../hub/hub-flags.ts";

/** The flags `vf eval` gains for the Hub. */
export interface EvalPushFlags {
  push?: boolean;
  hub?: string;
}

/** Uploads one finished run of the environment `envId` (as given to `vf eval`). */
export type UploadRun = (envId: string, result: EvaluateResult) => Promise<void>;

interface PushCommandFlags extends HubFlags {
  env?: string;
  hash?: string;
  json?: boolean;
}

/** Adds `--push` and `--hub` to `vf eval`, and the `vf eval push RUN_DIR` command. */
export function registerEvalPush(evalCommand: Command, io: Output): void {
  evalCommand
    .option("--push", "upload each finished run to the Hub as a report (implies -s)")
    .option(
      "--hub <url>",
      "the Hub for --push (default: VF_HUB_URL, else the one you logged in to)",
      hubUrlFlag,
    )
    // So that `vf eval push DIR --json` gives --json to push, not to eval.
    .enablePositionalOptions()
    .addHelpText(
      "after",
      "  vf eval ada/gsm8k -m gpt-4.1-mini -n 20 --push    then publish the run as a report",
    );

  withHubFlags(
    evalCommand
      .command("push")
      .description("upload a saved run to the Hub as a report, pinned to the environment version it used")
      .argument("<run-dir>", "the run's folder (holding metadata.json and results.jsonl)")
      .option("--env <owner/name>", "the environment on the Hub (default: the run's environment)")
      .option("--hash <sha256>", "the version's content hash (default: that of the installed package)")
      .option("--json", "print the report as JSON"),
  )
    .addHelpText(
      "after",
      `
Pushing again is safe: a complete report is left as it is, an interrupted upload resumes.

Examples:
  vf eval push outputs/evals/gsm8k--gpt-4.1-mini/1a2b3c4d
  vf eval push outputs/evals/gsm8k--gpt-4.1-mini/1a2b3c4d --env ada/gsm8k`,
    )
    .action(async (runDir: string, flags: PushCommandFlags) => {
      const hub = await loadHubClient();
      const client = await connectHub(flags);
      let target: { env?: string; contentHash?: string } = {};
      if (flags.env && flags.hash) target = { env: flags.env, contentHash: flags.hash };
      else if (flags.env) {
        const found = locate(flags.env);
        target = found ? { ...(await pinnedTarget(client, found)), env: flags.env } : { env: flags.env };
      } else {
        const found = locate((await readRun(runDir)).metadata.env_id);
        // Not found: pushReport tries the run's id itself and says to pass --env and --hash.
        if (found) target = await pinnedTarget(client, found);
      }
      const bar = progress(io);
      const pushed = await hub
        .pushReport({ client, runDir, ...target, onProgress: bar.update })
        .finally(bar.end);
      io.out(flags.json ? JSON.stringify(pushed) : describe(pushed));
    });
}

/**
 * For `vf eval --push`: the uploader, after checking that the Hub answers and accepts the key, so a
 * missing login fails before the evaluation rather than after it. Null without `--push`.
 */
export async function reportUploader(flags: EvalPushFlags, io: Output): Promise<UploadRun | null> {
  if (!flags.push) return null;
  const hub = await loadHubClient();
  const client = await connectHub(flags);
  await client.whoami();
  return async (envId, result) => {
    if (!result.runDir) return;
    const runDir = result.runDir;
    const bar = progress(io);
    try {
      const target = await pinnedTarget(client, findEnvironment(envId));
      const pushed = await hub.pushReport({ client, runDir, ...target, onProgress: bar.update });
      bar.end();
      io.err(describe(pushed));
    } catch (error) {
      bar.end();
      const kept = `the run is kept in ${runDir}: upload it with vf eval push ${runDir}`;
      if (error instanceof hub.HubError)
        throw new hub.HubError(error.code, `${error.message}; ${kept}`, error.details);
      if (error instanceof UserError) throw new UserError(`${error.message}; ${kept}`, { cause: error });
      throw error;
    }
  };
}

/**
 * The Hub id and content hash of an environment package. A package installed at
 * `node_modules/@owner/name` is the Hub's `owner/name`; any other is named by its package.json name
 * (a scope is the owner, else the key's user), as `vf env push` would push it.
 */
async function pinnedTarget(
  client: HubClient,
  found: FoundEnvironment,
): Promise<{ env: string; contentHash: string }> {
  const { collectPackageFiles, contentHash } = await import("@vf/hub");
  const hash = contentHash(collectPackageFiles(found.dir));
  const scopeDir = basename(dirname(found.dir));
  if (scopeDir.startsWith("@") && basename(dirname(dirname(found.dir))) === "node_modules") {
    return { env: `${scopeDir.slice(1)}/${basename(found.dir)}`, contentHash: hash };
  }
  const [, scope, name] = /^(?:@([^/]+)\/)?(.+)$/.exec(found.packageJson.name)!;
  const owner = scope ?? (await client.whoami()).user.name;
  return { env: `${owner}/${name}`, contentHash: hash };
}

/**
 * The package an environment id names here, or null. Runs of Hub packages record `owner/name`;
 * a run of a local package records its bare id (`capitals`), matched among the installed packages
 * when exactly one has it.
 */
function locate(envId: string): FoundEnvironment | null {
  try {
    return findEnvironment(envId);
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
  }
  if (envId.includes("/")) return null;
  const matches = new Map(
    listEnvironments()
      .filter((e) => e.packageJson.vf.id === envId)
      .map((e) => [realpathSync(e.dir), e]),
  );
  return matches.size === 1 ? [...matches.values()][0]! : null;
}

/** The upload's status line, on terminals only. */
function progress(io: Output): { update: (stored: number, total: number) => void; end: () => void } {
  let shown = false;
  return {
    update: (stored, total) => {
      if (!io.isTTY) return;
      shown = true;
      io.status(`uploading the report: ${stored}/${total} rollouts`);
    },
    end: () => {
      if (shown) io.status(null);
      shown = false;
    },
  };
}

function describe(pushed: PushReportResult): string {
  const { report } = pushed;
  const reward = report.avg_reward === null ? "no reward yet" : `avg reward ${report.avg_reward.toFixed(3)}`;
  const resumed = pushed.sent > 0 && pushed.resumedFrom > 0 ? `, resumed from row ${pushed.resumedFrom}` : "";
  const already = pushed.sent === 0 ? " (already uploaded)" : "";
  return `report ${report.id}${already}: ${report.env}@${report.version} with ${report.model}, ${report.row_count} rollouts, ${reward}${resumed} → ${pushed.url}`;
}

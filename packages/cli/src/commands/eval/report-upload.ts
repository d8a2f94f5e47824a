/**
 * Uploading eval runs to the Hub as reports. A report is pinned to the exact environment version the
 * run used: the content hash of the package folder the environment id finds, the same hash the Hub
 * gave that version. Uploads are idempotent per run id, and an interrupted one resumes.
 */
import { realpathSync } from "node:fs";
import { basename, dirname, relative } from "node:path";
import { type EvaluateResult, UserError } from "@vf-rl/core";
import { type FoundEnvironment, findEnvironment, listEnvironments } from "@vf-rl/core/loading";
import { readRun } from "@vf-rl/core/results";
import type { HubClient, PushReportResult } from "@vf-rl/hub/client";
import type { Output } from "../../terminal/output.ts";
import { vfCommand } from "../../vf-command.ts";
import { connectHub, type HubFlags, loadHubClient } from "../hub/hub-flags.ts";

/** The flags of `vf eval push`. */
export interface PushCommandFlags extends HubFlags {
  env?: string;
  hash?: string;
  json?: boolean;
}

/** An environment as given to `vf eval`: its id, and the folder of local environments it is looked up in. */
export interface EvaluatedEnv {
  envId: string;
  envDirPath?: string;
}

/** Uploads one finished run of an environment. */
export type UploadRun = (evaluated: EvaluatedEnv, result: EvaluateResult) => Promise<void>;

/** `vf eval push RUN_DIR`: uploads a saved run, pinned to the version found for its environment. */
export async function pushSavedRun(runDir: string, flags: PushCommandFlags, io: Output): Promise<void> {
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
  const pushed = await hub.pushReport({ client, runDir, ...target, onProgress: bar.update }).finally(bar.end);
  io.out(flags.json ? JSON.stringify(pushed) : describe(pushed));
}

/**
 * For `vf eval --push`: the uploader, after checking that the Hub answers, accepts the key and
 * holds the exact version of each environment about to be evaluated, so a missing login or an
 * environment never pushed fails before the (possibly paid) evaluation rather than after it.
 * Null without `--push`.
 */
export async function reportUploader(
  flags: HubFlags & { push?: boolean },
  io: Output,
  evaluated: readonly EvaluatedEnv[],
): Promise<UploadRun | null> {
  if (!flags.push) return null;
  const hub = await loadHubClient();
  const client = await connectHub(flags);
  await client.whoami();
  // Pinned now: the version evaluated is the one loaded at the start.
  const targets = new Map<string, { env: string; contentHash: string }>();
  const find = ({ envId, envDirPath }: EvaluatedEnv) =>
    findEnvironment(envId, envDirPath ? { envDir: envDirPath } : {});
  const key = ({ envId, envDirPath }: EvaluatedEnv) => `${envDirPath ?? ""}\0${envId}`;
  for (const one of evaluated) {
    if (targets.has(key(one))) continue;
    const found = find(one);
    const target = await pinnedTarget(client, found);
    await requireVersionOnHub(hub, client, target, found);
    targets.set(key(one), target);
  }
  return async (one, result) => {
    if (!result.runDir) return;
    const runDir = result.runDir;
    const bar = progress(io);
    try {
      const target = targets.get(key(one)) ?? (await pinnedTarget(client, find(one)));
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

/** Refuses, with how to push it, an environment version the Hub does not hold. */
async function requireVersionOnHub(
  hub: typeof import("@vf-rl/hub/client"),
  client: HubClient,
  target: { env: string; contentHash: string },
  found: FoundEnvironment,
): Promise<void> {
  const [owner, name] = target.env.split("/") as [string, string];
  const notFound = (error: unknown) => error instanceof hub.HubError && error.code === "not_found";
  const where = relative(process.cwd(), found.dir) || ".";
  const push = vfCommand(`env push ${where}`);
  try {
    await client.version(owner, name, target.contentHash);
    return;
  } catch (error) {
    if (!notFound(error)) throw error;
  }
  const info = await client.envInfo(owner, name).catch((error: unknown) => {
    if (notFound(error)) return null;
    throw error;
  });
  if (!info?.latest_version) {
    throw new UserError(
      `${target.env} is not on the Hub at ${client.url}, so --push could not upload the report: push the environment first with ${push}, then run the evaluation again`,
    );
  }
  throw new UserError(
    `the Hub at ${client.url} has no version of ${target.env} with the content of ${where} (content hash ${target.contentHash.slice(0, 12)}; its latest is ${info.latest_version}), so --push could not pin the report to it: push this version first with ${push} (add --bump patch if its version number is taken), then run the evaluation again`,
  );
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
  const { collectPackageFiles, contentHash } = await import("@vf-rl/hub");
  const hash = contentHash(await collectPackageFiles(found.dir));
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

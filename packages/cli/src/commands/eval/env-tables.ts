/**
 * prime-rl's (and verifiers v1's) way of naming an agent evaluation in a config, read into vf's own
 * keys: an `[[eval]]` block's `env` table, the same tables `vf train`'s `[[env]]` takes (declared
 * once, in @vf-rl/agents/config): `taskset` (its `id`, the rest its arguments), `agent.harness`
 * (`id`, the rest the harness's options) and `agent.runtime` (`type`), the last two also one level
 * up (`env.harness`, `env.runtime`). In TOML:
 *
 * [[eval]]
 * [eval.env.taskset]
 * id = "bash-arithmetic"
 * numEval = 100
 * [eval.env.agent.harness]
 * id = "bash"
 * tools = ["bash"]
 *
 * is `id = "bash-arithmetic"`, `args = { numEval = 100 }`, `harness = "bash"` and
 * `harness_args = { tools = ["bash"] }` (`--harness-args`). A key that is also set the plain way is
 * refused, as is any key these tables do not have, each in one line.
 */
import { AgentEnvTables, type AgentLimits, agentEnvSpec } from "@vf-rl/agents/config";
import { ConfigError } from "@vf-rl/core";
import type { z } from "zod";

type Table = Record<string, unknown>;

function isTable(value: unknown): value is Table {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A block with its `env` table read. */
export interface ReadEnvTables {
  block: unknown;
  /** `[env.agent]`'s limits over each task's own; empty when none. */
  limits: AgentLimits;
}

/**
 * `block` with its `env` table read into `id`, `args`, `harness`, `harness_args` and `runtime`; see
 * the file comment.
 */
export function readEnvTables(block: unknown, where: string): ReadEnvTables {
  if (!isTable(block) || block.env === undefined) return { block, limits: {} };
  const { env, ...rest } = block;
  const parsed = AgentEnvTables.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`${where}: ${issueLine(issue)}`, ["env", ...issue.path.map(String)].join("."));
  }
  const spec = agentEnvSpec(parsed.data);
  const out: Table = { ...rest };
  const set = (key: string, value: unknown, from: string) => {
    if (value === undefined) return;
    if (out[key] !== undefined)
      throw new ConfigError(`${where}: both ${key} and ${from} are set: keep one`, key);
    out[key] = value;
  };
  set("id", spec.id, "env.taskset.id");
  if (Object.keys(spec.args).length > 0) set("args", spec.args, "env.taskset's arguments");
  const prefix = parsed.data.agent?.harness ? "env.agent" : "env";
  set("harness", spec.harness, `${prefix}.harness.id`);
  if (Object.keys(spec.harnessOptions).length > 0) {
    set("harness_args", spec.harnessOptions, `${prefix}.harness's options`);
  }
  set("runtime", spec.runtime, `${parsed.data.agent?.runtime ? "env.agent" : "env"}.runtime.type`);
  return { block: out, limits: spec.limits };
}

/** One issue of the env table as a line: `env.agent.judge is not known: ...`. */
function issueLine(issue: z.core.$ZodIssue): string {
  const at = ["env", ...issue.path.map(String)].join(".");
  if (issue.code === "unrecognized_keys") {
    const known = KNOWN[at] ?? "";
    return `${at}.${issue.keys[0]} is not known${known ? `: use ${known}` : ""}`;
  }
  if (issue.code === "invalid_type" && issue.path.at(-1) === "id") {
    return `${at} is missing: name it, e.g. ${at} = "bash"`;
  }
  return `${at}: ${issue.message}`;
}

/** What each strict table of the env table holds, for messages. */
const KNOWN: Record<string, string> = {
  env: "env.taskset, env.agent (env.harness and env.runtime are its tables one level up)",
  "env.agent": "env.agent.harness, env.agent.runtime, or the limits max_turns, timeout and max_output_tokens",
  "env.agent.runtime": "type",
  "env.runtime": "type",
};

/**
 * The starting files `vf setup` writes into a workspace, as `prime lab setup` does for Python users:
 * an endpoint registry with commented examples, one eval config per bundled environment (the one
 * shipped in configs/eval when there is one, else written from the package's defaults), and the
 * shipped training configs.
 */
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { listEnvironments } from "@vf-rl/core/loading";

/** A file to write, relative to the workspace. */
export interface WorkspaceFile {
  path: string;
  content: string;
}

// An installed vf ships the configs in its package (scripts/build.mjs copies them there); inside vf's
// repository, running from these sources, they are at the root, and the package's copy is a build
// output that is stale until the next build.
const PACKAGE_CONFIGS = fileURLToPath(new URL("../../../configs/", import.meta.url));
const REPO_CONFIGS = fileURLToPath(new URL("../../../../../configs/", import.meta.url));
const FROM_SOURCES = import.meta.url.endsWith(".ts");
const SHIPPED_CONFIGS = (
  FROM_SOURCES ? [REPO_CONFIGS, PACKAGE_CONFIGS] : [PACKAGE_CONFIGS, REPO_CONFIGS]
).find((dir) => existsSync(dir));

export const ENDPOINTS_TOML = `# Model endpoints for vf eval -m <endpoint_id> and vf train.
# Each [[endpoint]] row names a model server; "type" is its API: openai_chat_completions (the
# default), openai_completions, openai_responses or anthropic_messages. Several rows with one endpoint_id are
# replicas, used in turn (one per group of rollouts). "key" is the NAME of the variable holding the
# API key, never the key itself; leave it out for local servers.
#
# OpenAI:
# [[endpoint]]
# endpoint_id = "gpt-4.1-mini"
# model = "gpt-4.1-mini"
# url = "https://api.openai.com/v1"
# key = "OPENAI_API_KEY"
#
# Anthropic's Messages API:
# [[endpoint]]
# endpoint_id = "claude"
# model = "claude-sonnet-5-5"
# url = "https://api.anthropic.com"
# key = "ANTHROPIC_API_KEY"
# type = "anthropic_messages"
#
# A local vLLM server (vllm serve Qwen/Qwen3-0.6B --port 8000), with two replicas:
# [[endpoint]]
# endpoint_id = "qwen3"
# model = "Qwen/Qwen3-0.6B"
# url = "http://127.0.0.1:8000/v1"
# [[endpoint]]
# endpoint_id = "qwen3"
# model = "Qwen/Qwen3-0.6B"
# url = "http://127.0.0.1:8001/v1"
#
# vf's own engine (vf serve --port 8100):
# [[endpoint]]
# endpoint_id = "local"
# model = "vf-builtin"
# url = "http://127.0.0.1:8100/v1"
`;

/** Every file setup would write, in order. */
export async function workspaceFiles(): Promise<WorkspaceFile[]> {
  const files: WorkspaceFile[] = [{ path: join("configs", "endpoints.toml"), content: ENDPOINTS_TOML }];
  const bundled = listEnvironments()
    .filter((env) => env.packageJson.name.startsWith("@vf-env/"))
    .map((env) => env.packageJson);
  const seen = new Set<string>();
  for (const pkg of bundled.sort((a, b) => a.vf.id.localeCompare(b.vf.id))) {
    if (seen.has(pkg.vf.id)) continue;
    seen.add(pkg.vf.id);
    const shipped = SHIPPED_CONFIGS && join(SHIPPED_CONFIGS, "eval", `${pkg.vf.id}.toml`);
    const content = shipped && existsSync(shipped) ? await readFile(shipped, "utf8") : evalConfig(pkg.vf);
    files.push({ path: join("configs", "eval", `${pkg.vf.id}.toml`), content });
  }
  const trainDir = SHIPPED_CONFIGS && join(SHIPPED_CONFIGS, "train");
  for (const name of await shippedTrainConfigs()) {
    files.push({
      path: join("configs", "train", name),
      content: await readFile(join(trainDir!, name), "utf8"),
    });
  }
  return files;
}

/** The names of the training configs vf ships (`reverse-text.toml`, ...), which setup writes to configs/train. */
export async function shippedTrainConfigs(): Promise<string[]> {
  const trainDir = SHIPPED_CONFIGS && join(SHIPPED_CONFIGS, "train");
  if (!trainDir || !existsSync(trainDir)) return [];
  return (await readdir(trainDir)).filter((n) => n.endsWith(".toml")).sort();
}

function evalConfig(vf: {
  id: string;
  description?: string | undefined;
  numExamples?: number | undefined;
  rolloutsPerExample?: number | undefined;
}): string {
  return `# vf eval configs/eval/${vf.id}.toml -s
# ${vf.description ?? vf.id}
# Leave model out to use the built-in local model, or name an endpoint_id of configs/endpoints.toml.
# model = "gpt-4.1-mini"
num_examples = ${vf.numExamples ?? 20}
rollouts_per_example = ${vf.rolloutsPerExample ?? 3}

[[eval]]
id = "${vf.id}"
# args = {}            # arguments of the environment's loadEnvironment
# [eval.sampling]
# temperature = 0.7
`;
}

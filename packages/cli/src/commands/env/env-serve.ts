/**
 * `vf env serve <env>`: serves an environment to Python RL engines (prime-rl, verifiers) over
 * verifiers' ZeroMQ env-server protocols, v1 and v0, with a pool of worker processes; a taskset
 * (or an environment given --harness) is served as agents, each run one rollout of the harness in
 * the runtime --runtime names. Prints the bound address on stdout once the environment has loaded,
 * news on stderr; SIGTERM or Ctrl-C finishes accepted runs, then exits.
 */
import { MissingPackageError } from "@vf-rl/core/errors";
import type { Command } from "commander";
import { UsageError } from "../../cli-errors.ts";
import { integerFlag, jsonObjectFlag } from "../../flag-values.ts";
import type { Output } from "../../terminal/output.ts";
import { RUNTIME_TYPES, type RuntimeType } from "../eval/eval-settings.ts";

interface ServeFlags {
  address: string;
  keyVar?: string[];
  envArgs?: Record<string, unknown>;
  extraEnvKwargs?: Record<string, unknown>;
  harness?: string;
  runtime?: RuntimeType;
  workers: number | "auto";
  maxConcurrent: number;
  maxMessageMib: number;
  static?: boolean;
}

/** `--key-var NAME`, repeatable: an environment variable's name. */
function keyVarFlag(value: string, previous: string[] = []): string[] {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(value)) {
    throw new UsageError(
      `--key-var takes the name of an environment variable (letters, digits, _), got "${value}": e.g. --key-var OPENAI_API_KEY`,
    );
  }
  return [...previous, value];
}

/** `--runtime local|container|subprocess`. */
function runtimeFlag(value: string): RuntimeType {
  const found = RUNTIME_TYPES.find((type) => type === value);
  if (found) return found;
  throw new UsageError(`--runtime "${value}" is not a runtime: use one of ${RUNTIME_TYPES.join(", ")}`);
}

/**
 * Refuses flags that do not fit what `envId` is: --runtime on an environment served by vf itself,
 * -x on a taskset. A package that cannot be found is left to the workers, which say why.
 */
async function checkAgentFlags(envId: string, flags: ServeFlags): Promise<void> {
  // Loaded here, not at start-up: vf --help declares this command without the toolkit.
  const { findEnvironment } = await import("@vf-rl/core/loading");
  let found: ReturnType<typeof findEnvironment>;
  try {
    found = findEnvironment(envId);
  } catch {
    return;
  }
  const isTaskset = found.packageJson.vf.kind === "taskset";
  if (!isTaskset && flags.harness === undefined && flags.runtime !== undefined) {
    throw new UsageError(
      `--runtime ${flags.runtime} is where agents run, and ${envId} is an environment run by vf itself: add --harness chat (or bash) to serve it as agents, or drop --runtime`,
    );
  }
  if (isTaskset && Object.keys(flags.extraEnvKwargs ?? {}).length > 0) {
    throw new UsageError(`${envId} is a taskset, which takes no -x settings: pass its arguments with -a`);
  }
}

/** `--workers N|auto`. */
export function workersFlag(flag: string) {
  const parse = integerFlag(flag, 1);
  return (value: string): number | "auto" => (value === "auto" ? "auto" : parse(value));
}

export function registerEnvServe(env: Command, io: Output): void {
  env
    .command("serve")
    .description(
      "serve an environment, or a taskset run by a harness, to prime-rl and verifiers over ZeroMQ (env-server protocols v1 and v0)",
    )
    .argument(
      "<env>",
      "environment or taskset id (reverse-text, coding-tasks, owner/name@1.0.0) or package folder",
    )
    .option(
      "--address <addr>",
      "where to bind (tcp://HOST:PORT; port 0: any free one); no authentication: keep it on loopback or a private network",
      "tcp://127.0.0.1:5000",
    )
    .option(
      "--key-var <name>",
      "an environment variable whose value runs may send as the API key to the endpoint they name (repeatable; default none: runs get the key EMPTY)",
      keyVarFlag,
    )
    .option("-a, --env-args <json>", "arguments for the environment's loadEnvironment", jsonObjectFlag("-a"))
    .option(
      "-x, --extra-env-kwargs <json>",
      'environment settings, e.g. {"max_turns": 3}',
      jsonObjectFlag("-x"),
    )
    .option(
      "--harness <id>",
      "serve as agents with this harness: bash, chat (an environment's own loop), claude-code, codex, pi, opencode (a taskset's default: bash)",
    )
    .option(
      "--runtime <type>",
      `where each agent runs: ${RUNTIME_TYPES.join(", ")} (default local, a sandbox; subprocess isolates nothing)`,
      runtimeFlag,
    )
    .option(
      "-w, --workers <n|auto>",
      "most worker processes (auto: one per core)",
      workersFlag("--workers"),
      1,
    )
    .option(
      "--max-concurrent <n>",
      "rollouts one worker runs at once; the pool grows at 90% of workers x this",
      integerFlag("--max-concurrent", 1),
      128,
    )
    .option(
      "--max-message-mib <n>",
      "largest request in MiB; larger ones are refused (over twice this, the client is disconnected)",
      integerFlag("--max-message-mib", 1),
      64,
    )
    .option("--static", "start every worker at once instead of growing the pool under load")
    .addHelpText(
      "after",
      `
Methods (v1: [request_id, method, msgpack] frames): health, run, cancel, and tasks (the rows as
task data, also printed by vf env tasks). v0: run_rollout, run_group, ping, empty payload = cancel.

A taskset (or an environment with --harness) is served as agents: each run is one rollout of the
harness on the task its task data names, in its own runtime, and its v1 episode is the harness's
trace (every model call a sampled node with the model's token ids, for prime-rl to train on).

Anyone who reaches the address can run rollouts that call a URL of their choosing: the server
sends a variable's value as the key only when it is named with --key-var (a local vLLM without a
key needs none). tcp://0.0.0.0:PORT accepts every network the machine is on: only behind a
firewall or on a private network you trust.

Examples:
  vf env serve reverse-text                              tcp://127.0.0.1:5000, one worker
  vf env serve reverse-text --address tcp://127.0.0.1:0 -w auto
  vf env serve ./environments/my-env -a '{"difficulty": "hard"}' -w 4
  vf env serve reverse-text --key-var OPENAI_API_KEY     runs may send this machine's OpenAI key
  vf env serve coding-tasks --harness bash --runtime local   agents, traces as v1 episodes`,
    )
    .action(async (envId: string, flags: ServeFlags) => {
      const { availableParallelism } = await import("node:os");
      const { EnvServerAddressError, startEnvServer } = await import("@vf-rl/env-server");
      await checkAgentFlags(envId, flags);
      const maxWorkers = flags.workers === "auto" ? availableParallelism() : flags.workers;
      const server = await startEnvServer({
        envId,
        address: flags.address,
        envArgs: flags.envArgs ?? {},
        extraEnvKwargs: flags.extraEnvKwargs ?? {},
        ...(flags.harness !== undefined ? { harness: flags.harness } : {}),
        ...(flags.runtime !== undefined ? { runtime: flags.runtime } : {}),
        maxWorkers,
        elastic: !flags.static,
        maxConcurrent: flags.maxConcurrent,
        maxMessageBytes: flags.maxMessageMib * 2 ** 20,
        keyVars: flags.keyVar ?? [],
        log: (line) => io.err(line),
      }).catch((error: unknown) => {
        if (error instanceof EnvServerAddressError) throw new UsageError(`--address ${error.message}`);
        // zeromq not installed: its install line, not a port to change.
        if (error instanceof MissingPackageError) throw error;
        const detail = error instanceof Error ? error.message : String(error);
        throw new UsageError(
          `cannot bind ${flags.address} (${detail}): pick another port, or :0 for any free one`,
        );
      });
      let stopping = 0;
      const stopped = new Promise<void>((resolve, reject) => {
        // Health answers from the bind on, but the address is printed only once the environment
        // has loaded: a script reading it gets a server that runs, and a load error comes alone.
        server.ready.then(
          () => {
            if (stopping > 0) return;
            io.out(server.address);
            io.err(
              `serving ${envId} on ${server.address} (up to ${maxWorkers} worker${maxWorkers === 1 ? "" : "s"}); Ctrl-C to stop`,
            );
          },
          async (error: unknown) => {
            await server.close();
            reject(error);
          },
        );
        const stop = (): void => {
          stopping += 1;
          if (stopping === 1) {
            io.err("draining: finishing accepted runs, refusing new ones (again to stop at once)");
            void server.drain().then(resolve, reject);
          } else {
            void server.close().then(resolve, reject);
          }
        };
        process.on("SIGINT", stop);
        process.on("SIGTERM", stop);
      });
      await stopped;
      io.err("stopped");
    });
}

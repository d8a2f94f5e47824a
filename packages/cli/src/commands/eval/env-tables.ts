/**
 * verifiers v1's and prime-rl's way of naming an agent evaluation in a config, read into vf's own
 * keys: an `[[eval]]` block's `env` table with `taskset` (its `id`, the rest its arguments),
 * `harness` (`id`) and `runtime` (`type`), the last two also under `env.agent`. In TOML:
 *
 * [[eval]]
 * [eval.env.taskset]
 * id = "coding-tasks"
 * numEval = 2
 * [eval.env.harness]
 * id = "bash"
 *
 * is `id = "coding-tasks"`, `args = { numEval = 2 }`, `harness = "bash"`. A key that is also set
 * the plain way is refused, as is any other key of these tables.
 */
import { ConfigError } from "@vf-rl/core";

type Table = Record<string, unknown>;

function isTable(value: unknown): value is Table {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `block` with its `env` table read into `id`, `args`, `harness` and `runtime`; see the file comment. */
export function readEnvTables(block: unknown, where: string): unknown {
  if (!isTable(block) || block.env === undefined) return block;
  const { env, ...rest } = block;
  const fail = (message: string, key: string): never => {
    throw new ConfigError(`${where}: ${message}`, key);
  };
  if (!isTable(env)) return fail('"env" must be a table of taskset, harness and runtime', "env");
  const { taskset, harness, runtime, agent, ...unknown } = env;
  const stray = Object.keys(unknown)[0];
  if (stray !== undefined)
    fail(`env.${stray} is not known: use env.taskset, env.harness, env.runtime or env.agent`, `env.${stray}`);
  const out: Table = { ...rest };
  const set = (key: string, value: unknown, from: string) => {
    if (value === undefined) return;
    if (out[key] !== undefined) fail(`both ${key} and ${from} are set: keep one`, key);
    out[key] = value;
  };
  if (taskset !== undefined) {
    if (!isTable(taskset) || typeof taskset.id !== "string") {
      fail('env.taskset must be a table with the taskset\'s id, e.g. { id = "coding-tasks" }', "env.taskset");
    }
    const { id, ...args } = taskset as Table;
    set("id", id, "env.taskset.id");
    if (Object.keys(args).length > 0) set("args", args, "env.taskset's arguments");
  }
  let agentHarness: unknown;
  let agentRuntime: unknown;
  if (agent !== undefined) {
    if (!isTable(agent)) fail("env.agent must be a table of harness and runtime", "env.agent");
    const { harness: h, runtime: r, ...other } = agent as Table;
    const extra = Object.keys(other)[0];
    if (extra !== undefined)
      fail(
        `env.agent.${extra} is not known: vf reads env.agent.harness and env.agent.runtime`,
        `env.agent.${extra}`,
      );
    agentHarness = h;
    agentRuntime = r;
  }
  set("harness", field(harness, "id", "env.harness", fail), "env.harness.id");
  set("harness", field(agentHarness, "id", "env.agent.harness", fail), "env.agent.harness.id");
  set("runtime", field(runtime, "type", "env.runtime", fail), "env.runtime.type");
  set("runtime", field(agentRuntime, "type", "env.agent.runtime", fail), "env.agent.runtime.type");
  return out;
}

/** `table.key`, from a table holding only that key; undefined when the table is. */
function field(
  table: unknown,
  key: string,
  name: string,
  fail: (message: string, key: string) => never,
): unknown {
  if (table === undefined) return undefined;
  if (!isTable(table) || table[key] === undefined)
    return fail(`${name} must be a table with ${key}, e.g. { ${key} = "..." }`, name);
  const extra = Object.keys(table).find((k) => k !== key);
  if (extra !== undefined) fail(`${name}.${extra} is not known: vf reads ${name}.${key}`, `${name}.${extra}`);
  return table[key];
}

/**
 * `vf env tasks <env>`: an environment's rows (a taskset's tasks) as the task data its env server's
 * `run` takes (and its `tasks` method returns), for clients that own data loading, as prime-rl's
 * orchestrator does.
 */
import type { Command } from "commander";
import { countOrAllFlag, jsonObjectFlag } from "../../flag-values.ts";
import type { Output } from "../../terminal/output.ts";

interface TasksFlags {
  split: "train" | "eval";
  numExamples: number;
  jsonl?: boolean;
  envArgs?: Record<string, unknown>;
}

export function registerEnvTasks(env: Command, io: Output): void {
  env
    .command("tasks")
    .description("print an environment's rows as env-server task data (what vf env serve's run takes)")
    .argument(
      "<env>",
      "environment or taskset id (reverse-text, coding-tasks, owner/name@1.0.0) or package folder",
    )
    .option("--split <split>", "train or eval", "train")
    .option("-n, --num-examples <n>", "rows to print; -1 for all", countOrAllFlag("-n"), -1)
    .option("--jsonl", "one task a line instead of a JSON array")
    .option("-a, --env-args <json>", "arguments for the environment's loadEnvironment", jsonObjectFlag("-a"))
    .addHelpText(
      "after",
      `
Each task: {"idx": <example id>, "prompt": [v1 messages], "answer", "info", "task"}.

Examples:
  vf env tasks reverse-text --split eval -n 3
  vf env tasks gsm8k --jsonl > tasks.jsonl`,
    )
    .action(async (envId: string, flags: TasksFlags) => {
      const { UsageError } = await import("../../cli-errors.ts");
      if (flags.split !== "train" && flags.split !== "eval") {
        throw new UsageError(`--split must be train or eval, got "${flags.split}"`);
      }
      const { findEnvironment, loadEnvironmentById } = await import("@vf-rl/core/loading");
      const { toTaskData } = await import("@vf-rl/env-server");
      const args = flags.envArgs ?? {};
      // A taskset's tasks, as vf env serve lists them (its agents run no program to list them).
      const { env } =
        findEnvironment(envId).packageJson.vf.kind === "taskset"
          ? await (await import("@vf-rl/agents")).loadAgentEnv({ envId, envArgs: args })
          : await loadEnvironmentById(envId, { args });
      try {
        const { inputs, warnings } = await env.inputs({ split: flags.split, numExamples: flags.numExamples });
        for (const warning of warnings) io.err(`warning: ${warning}`);
        const tasks = inputs.map(toTaskData);
        if (flags.jsonl) for (const task of tasks) io.out(JSON.stringify(task));
        else io.out(JSON.stringify(tasks, null, 2));
      } finally {
        await env.teardown();
      }
    });
}

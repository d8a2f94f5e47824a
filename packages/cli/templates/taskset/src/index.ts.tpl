/**
 * {{name}}: a vf taskset. Each task asks an agent for a country's capital; the agent answers by
 * calling the task's `submit` tool (served to it over MCP) or by writing answer.txt itself, and the
 * score reads answer.txt in the folder the agent leaves. Replace the tasks, the
 * tool and the score with your own: `tasks` gives the work, `score` checks what was done.
 */
import { readFile } from "node:fs/promises";
import { EnvArgsError, tool } from "@vf-rl/core";
import type { AgentTask, Taskset, TaskTool } from "@vf-rl/core/agents";
import { z } from "zod";

/** The arguments `vf eval -a '{...}'` passes to loadTaskset. */
export const Args = z
  .object({
    /** Tasks of the eval split at most. */
    numEval: z.number().int().positive().optional(),
    /** Seconds an agent may take on a task. */
    timeSeconds: z.number().positive().default(120),
  })
  .strict();
export type Args = z.infer<typeof Args>;

const Row = z.object({ country: z.string(), capital: z.string() });

/** Where the agent's answer goes, in its working folder. */
const ANSWER_FILE = "answer.txt";

/** Writes the agent's answer where `score` reads it. */
const submit: TaskTool = tool({
  name: "submit",
  description: `Submit your final answer (it is written to ${ANSWER_FILE}).`,
  parameters: z.object({ answer: z.string().describe("the answer, and nothing else") }),
  run: async ({ answer }, { runtime }) => {
    await runtime.writeFile(ANSWER_FILE, answer);
    return `submitted: ${answer}`;
  },
});

async function load(args: unknown = {}): Promise<Taskset> {
  const parsed = Args.safeParse(args ?? {});
  if (!parsed.success) {
    throw new EnvArgsError("{{name}}", parsed.error.issues.map((i) => `${i.path.join(".") || "(args)"}: ${i.message}`));
  }
  const { numEval, timeSeconds } = parsed.data;
  const text = await readFile(new URL("../data/tasks.jsonl", import.meta.url), "utf8");
  const rows = text.split("\n").filter((line) => line.trim() !== "").map((line) => Row.parse(JSON.parse(line)));
  const tasks: AgentTask[] = rows.slice(0, numEval).map((row, i) => ({
    id: row.country.toLowerCase(),
    exampleId: i,
    prompt: [
      {
        role: "user",
        content: `What is the capital of ${row.country}? Submit it with the submit tool, or write it alone to ${ANSWER_FILE}.`,
      },
    ],
    answer: row.capital,
    info: {},
    files: {},
    network: { allow: [], block: [] },
    limits: { timeSeconds, maxTurns: 10 },
  }));
  return {
    id: "{{name}}",
    // One split here: the same tasks for training and evaluation.
    tasks: async () => tasks,
    tools: () => [submit],
    score: async ({ task, runtime }) => {
      const answer = (await runtime.readFile(ANSWER_FILE))?.trim() ?? "";
      const exact = answer.toLowerCase() === task.answer.toLowerCase() ? 1 : 0;
      return { reward: exact, metrics: { answered: answer === "" ? 0 : 1 } };
    },
    // A known-good solution: `vf eval validate` checks that it scores 1, with no model.
    referenceFiles: async (task) => ({ [ANSWER_FILE]: task.answer }),
  };
}

/** The entry vf finds through package.json's `"vf": { "kind": "taskset" }`. */
export const loadTaskset = Object.assign(load, { argsSchema: Args });

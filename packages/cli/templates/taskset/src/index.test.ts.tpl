// Checks the taskset with no model: its reference answers score 1 (what `vf eval validate` checks),
// and the submit tool writes what the score reads. Each task gets a working folder of its own, as
// an agent's would (a plain subprocess runtime from @vf-rl/agents).
import { subprocessRuntime } from "@vf-rl/agents";
import { taskToolSession } from "@vf-rl/core/agents";
import { validateTaskset } from "@vf-rl/core/checks";
import { describe, expect, it } from "vitest";
import { loadTaskset } from "./index.ts";

const runtimes = subprocessRuntime({ quiet: true });

describe("{{name}}", () => {
  it("scores its reference answers 1", async () => {
    const report = await validateTaskset(await loadTaskset({}), { runtimes });
    expect(report.failures).toEqual([]);
    expect(report.referencesScored).toBe(6);
  });

  it("scores what the agent submitted with the tool: 1 when right, 0 when wrong", async () => {
    const taskset = await loadTaskset({ numEval: 1 });
    const [task] = await taskset.tasks({ split: "eval" });
    const runtime = await runtimes.create(task!, { interceptionUrl: "http://127.0.0.1:9/v1" });
    try {
      const tools = taskToolSession(await taskset.tools!(task!), {
        task: task!,
        runtime,
        signal: new AbortController().signal,
      });
      const score = () => taskset.score({ task: task!, runtime, trace: NO_AGENT });
      expect(await score()).toEqual({ reward: 0, metrics: { answered: 0 } });
      await tools.call("submit", JSON.stringify({ answer: "Lyon" }));
      expect(await score()).toEqual({ reward: 0, metrics: { answered: 1 } });
      await tools.call("submit", JSON.stringify({ answer: "Paris" }));
      expect(await score()).toEqual({ reward: 1, metrics: { answered: 1 } });
    } finally {
      await runtime.close();
    }
  });

  it("rejects unknown arguments with a clear message", async () => {
    await expect(loadTaskset({ numEvals: 3 })).rejects.toThrow(/numEvals/);
  });
});

/** The trace of an agent that made no model call, for scoring a folder by hand. */
const NO_AGENT = {
  calls: [],
  nodes: [],
  toolResults: [],
  stop: "agent_completed" as const,
  errors: [],
  exitCode: 0,
  output: "",
};

// The vf binary end to end, as a user drives it: init → eval against a scripted server → view --json
// → an interrupted run resumed with -R; and each kind of bad input with its exit status and message.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { byPrompt, lastUserText, type ScriptedServer, startScriptedServer } from "@vf-rl/core/testing";
import { runVf, type VfResult } from "@vf-rl/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TempProject, tempProject } from "./temp-project.ts";

let project: TempProject;
let server: ScriptedServer;
let init: VfResult;

beforeAll(async () => {
  project = await tempProject();
  init = await runVf(["init", "capitals"], { cwd: project.dir });
  server = await startScriptedServer({
    latencySeconds: 0.04,
    // The scaffold's task done perfectly: the sentence reversed, in its tags.
    reply: byPrompt(
      (messages) => `<reversed_text>\n${[...lastUserText(messages)].reverse().join("")}\n</reversed_text>`,
    ),
  });
});
afterAll(async () => {
  await server.close();
  await project.remove();
});

const modelFlags = () => ["-m", "scripted", "-b", server.url];

describe("vf init → eval → view", () => {
  it("scaffolds an environment, evaluates it, saves the run and lists it for scripts", async () => {
    expect(init.code).toBe(0);
    expect(init.stdout).toContain("created environments/capitals/");

    const evaluated = await runVf(
      ["eval", "capitals", ...modelFlags(), "-n", "3", "-r", "2", "-s", "--json"],
      {
        cwd: project.dir,
      },
    );
    expect(evaluated.stderr).not.toMatch(/^error:/m);
    expect(evaluated.code).toBe(0);
    const summary = JSON.parse(evaluated.stdout);
    expect(summary).toMatchObject({
      env_id: "capitals",
      model: "scripted",
      num_examples: 3,
      rollouts_per_example: 2,
    });
    expect(summary.avg_reward).toBeCloseTo(1.2);
    expect(summary.pass_at_k).toEqual({ "1": 1, "2": 1 });
    const rows = (await readFile(join(project.dir, summary.run_dir, "results.jsonl"), "utf8"))
      .trim()
      .split("\n");
    expect(rows).toHaveLength(6);

    const viewed = await runVf(["view", "--json"], { cwd: project.dir });
    expect(viewed.code).toBe(0);
    const runs = JSON.parse(viewed.stdout);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ env_id: "capitals", rows: 6, status: "complete", dir: summary.run_dir });
  });

  it("evaluates the scaffold with its own defaults without a warning", async () => {
    const evaluated = await runVf(["eval", "capitals", ...modelFlags(), "--json"], { cwd: project.dir });
    expect(evaluated.code).toBe(0);
    expect(evaluated.stderr).not.toMatch(/warning/);
    expect(JSON.parse(evaluated.stdout)).toMatchObject({ num_examples: 5, rollouts_per_example: 3 });
  });

  it("prints verifiers' summary on a plain terminal", async () => {
    const evaluated = await runVf(["eval", "capitals", ...modelFlags(), "-n", "2", "-r", "2"], {
      cwd: project.dir,
    });
    expect(evaluated.code).toBe(0);
    expect(evaluated.stdout).toContain("--- Evaluation ---");
    expect(evaluated.stdout).toMatch(/reward: avg - 1\.200, std - 0/);
    expect(evaluated.stdout).toMatch(/^r2: \[1\.200, 1\.200\]$/m);
    expect(evaluated.stdout).toMatch(/pass@k: 1=1, 2=1/);
    expect(evaluated.stderr).toMatch(/4\/4 rollouts/);
  });

  it("keeps finished rollouts on Ctrl-C and resumes with -R to the full count, without duplicates", async () => {
    const flags = [
      "eval",
      "capitals",
      ...modelFlags(),
      "-a",
      '{"numEval": 8}',
      "-n",
      "6",
      "-r",
      "3",
      "-c",
      "1",
      "-s",
    ];
    const first = await runVf(flags, { cwd: project.dir, interruptWhen: /[4-9]\/18 rollouts/ });
    expect(first.stderr).toMatch(/stopping: keeping finished rollouts/);
    expect(first.code).toBe(130);
    expect(first.stderr).toMatch(
      /interrupted: \d+ finished rollouts kept in .*rerun the same command with -R/,
    );

    const second = await runVf([...flags, "-R", "--json"], { cwd: project.dir });
    expect(second.code).toBe(0);
    const summary = JSON.parse(second.stdout);
    expect(summary.status).toBe("complete");
    const lines = (await readFile(join(project.dir, summary.run_dir, "results.jsonl"), "utf8"))
      .trim()
      .split("\n");
    const keys = lines.map((line) => {
      const row = JSON.parse(line);
      return `${row.example_id}/${row.rollout_index}`;
    });
    expect(keys).toHaveLength(18);
    expect(new Set(keys).size).toBe(18);
  });
});

describe("vf eval with bad input", () => {
  const cases: Array<[string, string[], number, RegExp]> = [
    [
      "an unknown environment",
      ["eval", "no-such-env", "-m", "x", "-b", "http://127.0.0.1:9/v1"],
      1,
      /unknown environment "no-such-env": known environments: .*capitals/,
    ],
    [
      "an unreachable endpoint",
      ["eval", "capitals", "-m", "x", "-b", "http://127.0.0.1:9/v1"],
      1,
      /cannot reach the model endpoint http:\/\/127\.0\.0\.1:9\/v1: check that the server is running.*\nhint: -b\/--api-base-url sets the URL/,
    ],
    [
      "a missing API key variable",
      ["eval", "capitals", "-m", "gpt-4.1-mini", "-b", "http://127.0.0.1:9/v1", "-k", "VF_TEST_NO_SUCH_KEY"],
      1,
      /the API key variable VF_TEST_NO_SUCH_KEY is not set: export VF_TEST_NO_SUCH_KEY=.*\nhint: -k\/--api-key-var names the variable/,
    ],
    [
      "an endpoint registry that does not exist",
      ["eval", "capitals", "-m", "x", "-e", "/nonexistent/endpoints.toml"],
      1,
      /cannot read the endpoint registry \/nonexistent\/endpoints.toml: .*\nhint: -e\/--endpoints-path names the registry/,
    ],
    [
      "a setting a single-turn environment cannot take",
      ["eval", "capitals", "-m", "x", "-b", "http://127.0.0.1:9/v1", "-x", '{"max_turns": 3}'],
      1,
      /drop max_turns from the environment settings\nhint: vf eval sets them with -x\/--extra-env-kwargs/,
    ],
    [
      // vf eval installs it first; here the Hub is not there (hub-env.test.ts installs from one)
      "a Hub environment that is not installed, from a Hub that is not there",
      [
        "eval",
        "someone/thing@1.0.0",
        "-m",
        "x",
        "-b",
        "http://127.0.0.1:9/v1",
        "--hub",
        "http://127.0.0.1:9",
      ],
      1,
      /^someone\/thing@1.0.0 is not installed here: installing it from the Hub at http:\/\/127.0.0.1:9\nerror: cannot reach the Hub at http:\/\/127.0.0.1:9 .*: start it with (npx )?vf hub serve, or set VF_HUB_URL\n$/,
    ],
    [
      // The scaffold splits its rows with evalSize = numEval: more than it has is a split it
      // cannot make, reported as such (it was a RangeError, "an internal error of vf").
      "env args the environment's own code cannot use",
      ["eval", "capitals", "-m", "x", "-b", "http://127.0.0.1:9/v1", "-a", '{"numEval": 100}'],
      1,
      /^error: split's evalSize must be a whole number from 0 to \d+ \(the dataset's size\), got 100: pass a count in that range\n$/,
    ],
    [
      "env args that fail the schema",
      ["eval", "capitals", "-m", "x", "-b", "http://127.0.0.1:9/v1", "-a", '{"numEval": "four"}'],
      1,
      /bad env args for "capitals": numEval: .*expected number.*\nhint: fix them with -a\/--env-args/,
    ],
    ["env args that are not JSON", ["eval", "capitals", "-a", "{numEval: 4}"], 2, /-a must be a JSON object/],
    ["an unknown flag", ["eval", "capitals", "--num-exemples", "3"], 2, /unknown option '--num-exemples'/],
    ["a bad number", ["eval", "capitals", "-n", "many"], 2, /-n must be a whole number, got "many"/],
  ];
  for (const [what, args, code, message] of cases) {
    it(`stops on ${what} with exit ${code} and one clear line`, async () => {
      const result = await runVf(args, { cwd: project.dir });
      expect(result.code).toBe(code);
      expect(result.stderr).toMatch(message);
      expect(result.stderr).not.toMatch(/\n\s+at /);
      expect(result.stderr).not.toMatch(/internal error/);
    });
  }

  it("refuses independent scoring of an environment with group rewards, naming -i", async () => {
    const dir = join(project.dir, "environments", "grouped");
    await mkdir(join(dir, "src"), { recursive: true });
    await writeFile(
      join(dir, "package.json"),
      JSON.stringify({ name: "grouped", type: "module", exports: "./src/index.ts", vf: { id: "grouped" } }),
    );
    await writeFile(
      join(dir, "src", "index.ts"),
      [
        'import { Dataset, defineEnvironment, Rubric, SingleTurnEnv } from "@vf-rl/core";',
        'import { z } from "zod";',
        "export const loadEnvironment = defineEnvironment({",
        "  args: z.object({}).strict(),",
        "  load: () =>",
        "    new SingleTurnEnv({",
        '      dataset: Dataset.fromRows([{ question: "Say hi", answer: "hi" }]),',
        '      evalDataset: Dataset.fromRows([{ question: "Say hi", answer: "hi" }]),',
        '      rubric: new Rubric().addGroupReward((group) => group.map(() => 1), { name: "same" }),',
        "    }),",
        "});",
      ].join("\n"),
    );
    const result = await runVf(["eval", "grouped", ...modelFlags(), "-n", "1", "-r", "2", "-i"], {
      cwd: project.dir,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /\nerror: this environment's rubric has group reward functions, .*\(turn independent scoring off\)\nhint: drop -i\/--independent-scoring\n$/,
    );
  });

  it("records a model that returns garbage on each rollout, runs them all, and exits 1", async () => {
    const garbage = await startScriptedServer({
      reply: () => ({ type: "garbage", body: "<html>oops</html>" }),
    });
    try {
      const result = await runVf(
        [
          "eval",
          "capitals",
          "-m",
          "x",
          "-b",
          garbage.url,
          "-n",
          "2",
          "-r",
          "1",
          "--max-retries",
          "0",
          "--json",
        ],
        {
          cwd: project.dir,
        },
      );
      expect(result.code).toBe(1);
      const summary = JSON.parse(result.stdout);
      expect(summary.status).toBe("failed");
      expect(summary.avg_error).toBe(1);
      expect(summary.error_counts).toEqual({ InvalidModelResponseError: 2 });
    } finally {
      await garbage.close();
    }
  });
});

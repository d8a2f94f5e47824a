// vf eval --cache through the real vf binary: a run recorded against a scripted model replays with
// nothing listening (the same rows, the server asked nothing more) over each model API, and for an
// agent's calls through the interception server; a request never recorded fails the run with one
// line naming it. Gates: --fail-under's exit codes (0 passed, 3 below, 1 not measurable, 2 bad
// usage), the JUnit XML read back, the Markdown summary and GitHub's step summary, a config's keys.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadEnvironment } from "@vf-env/gsm8k-calculator";
import { SYSTEM_PROMPT } from "@vf-env/reverse-text";
import {
  byPrompt,
  type ReplyFn,
  referenceReplies,
  type ScriptedServer,
  startScriptedServer,
} from "@vf-rl/core/testing";
import { runVf } from "@vf-rl/test-support";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/** Where nothing listens: a replay must not need the server. */
const DEAD_URL = "http://127.0.0.1:9/v1";
const TOOL_APIS = ["openai_chat_completions", "openai_responses", "anthropic_messages"] as const;

/** Reverses the passage of reverse-text's text-completion prompt (system prompt, blank line, passage). */
const reverseText: ReplyFn = byPrompt((messages) => {
  const prompt = String(messages[0]!.content);
  const head = `${SYSTEM_PROMPT}\n\n`;
  const passage = prompt.startsWith(head) ? prompt.slice(head.length) : "";
  return `<reversed_text>\n${[...passage].reverse().join("")}\n</reversed_text>`;
});

/** js-slugify's fix with one bash call, then done (eval-agents.test.ts's model). */
const fixesSlugs: ReplyFn = (request) => {
  if (request.messages.some((message) => message.role === "tool")) return "Done.";
  if (!JSON.stringify(request.messages).includes("stray dashes")) return "I cannot fix this.";
  const command = `sed -i 's#\\.replace(/\\[^a-z0-9\\]+/g, "-");#.replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");#' src/slugify.js`;
  return { type: "message", toolCalls: [{ name: "bash", arguments: { command } }] };
};

let dir: string;
let calculator: ScriptedServer;
let reverser: ScriptedServer;
let coder: ScriptedServer;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "vf-eval-cache-"));
  [calculator, reverser, coder] = await Promise.all([
    referenceReplies(await loadEnvironment({ numEval: 10 })).then((reply) => startScriptedServer({ reply })),
    startScriptedServer({ reply: reverseText, tokens: true }),
    startScriptedServer({ reply: fixesSlugs }),
  ]);
});
afterAll(async () => {
  await Promise.all([calculator.close(), reverser.close(), coder.close()]);
  await rm(dir, { recursive: true, force: true });
});

/** `vf eval ... --json` and its parsed summary (when it exited 0). */
async function evalJson(args: string[], env: NodeJS.ProcessEnv = {}) {
  const run = await runVf(["eval", ...args, "--json"], { env });
  // biome-ignore lint/suspicious/noExplicitAny: the summary's fields are what the tests assert
  const summary: any = run.code === 0 ? JSON.parse(run.stdout) : undefined;
  return { ...run, summary };
}

/** A run's rows without what differs from run to run, by example and rollout. */
async function rows(runDir: string): Promise<Array<Record<string, unknown>>> {
  const text = await readFile(join(runDir, "results.jsonl"), "utf8");
  return text
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .map(({ timing: _t, trajectory_id: _id, trace: _trace, ...row }) => row)
    .sort(
      (a, b) =>
        Number(a.example_id) - Number(b.example_id) || Number(a.rollout_index) - Number(b.rollout_index),
    );
}

/** Records `args` against `server`, replays them at a dead URL, and returns both runs. */
async function recordThenReplay(server: ScriptedServer, name: string, args: string[]) {
  const cache = join(dir, `cache-${name}`);
  const out = join(dir, `out-${name}`);
  const common = [...args, "-m", "scripted", "--cache", cache, "-s", "-o", out];
  const recorded = await evalJson([...common, "-b", server.url]);
  expect(recorded.stderr).not.toMatch(/^error:/m);
  expect(recorded.code).toBe(0);
  const asked = server.requests.length;
  const replayed = await evalJson([...common, "-b", DEAD_URL, "--cache-mode", "replay"]);
  expect(replayed.stderr).not.toMatch(/^error:/m);
  expect(replayed.code).toBe(0);
  expect(server.requests.length).toBe(asked);
  expect(replayed.summary.avg_reward).toBe(recorded.summary.avg_reward);
  expect(await rows(replayed.summary.run_dir)).toEqual(await rows(recorded.summary.run_dir));
  return { recorded, replayed, cache };
}

describe("vf eval --cache", () => {
  for (const api of TOOL_APIS) {
    it(`records gsm8k-calculator's tool calls over ${api} and replays them with no server`, async () => {
      const { recorded } = await recordThenReplay(calculator, api, [
        "gsm8k-calculator",
        "--api-client-type",
        api,
        "-n",
        "2",
        "-r",
        "2",
      ]);
      expect(recorded.summary.avg_reward).toBe(1);
    });
  }

  it("records reverse-text over text completions, tokens and logprobs included, and replays them", async () => {
    const args = ["reverse-text", "--api-client-type", "openai_completions", "-n", "3", "-r", "2"];
    const { replayed } = await recordThenReplay(reverser, "completions", args);
    expect(replayed.summary.avg_reward).toBeGreaterThan(0.9);
    const [row] = await rows(replayed.summary.run_dir);
    // biome-ignore lint/suspicious/noExplicitAny: a saved row's trajectory
    const turn = (row as any).trajectory[0].tokens;
    expect(turn.completion_logprobs.length).toBeGreaterThan(0);
  });

  it("records an agent's calls through the interception server and replays them", async () => {
    const args = ["coding-tasks", "--harness", "bash", "--runtime", "subprocess", "-n", "2", "-r", "1"];
    const { replayed, cache } = await recordThenReplay(coder, "agent", args);
    // js-slugify is fixed by the replayed bash call; py-median is not.
    expect(replayed.summary.avg_reward).toBe(0.5);
    // A second rollout of each task asks what only one was recorded answering.
    const more = await evalJson([
      ...args.slice(0, -1),
      "2",
      "-m",
      "scripted",
      "-b",
      DEAD_URL,
      "--cache",
      cache,
      "--cache-mode",
      "replay",
    ]);
    expect(more.code).toBe(1);
    expect(more.stderr).toMatch(
      /^error: --cache-mode replay: no recorded answer in .* for scripted over openai_chat_completions, request [0-9a-f]{12}, identical call #2 of the run \(".+"\)/m,
    );
  });

  it("fails a replay that meets a request never recorded with one line naming it", async () => {
    const cache = join(dir, "cache-completions");
    const run = await evalJson(
      ["reverse-text", "-m", "scripted", "-b", DEAD_URL, "--api-client-type", "openai_completions"].concat([
        "-n",
        "3",
        "-r",
        "2",
        "-T",
        "0.5",
        "--cache",
        cache,
        "--cache-mode",
        "replay",
      ]),
    );
    expect(run.code).toBe(1);
    const errors = run.stderr.split("\n").filter((line) => line.startsWith("error:"));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(
      /^error: --cache-mode replay: no recorded answer in .*cache-completions for scripted over openai_completions, request [0-9a-f]{12} \(".+"\): record it with --cache-mode record/,
    );
  });
});

/** The test cases of a JUnit file, read by an XML parser as a CI's reporter reads them. */
function junitCases(xml: string) {
  expect(XMLValidator.validate(xml)).toBe(true);
  type Outcome = { "@_message": string };
  type Case = { "@_name": string; failure?: Outcome; error?: Outcome };
  const parser = new XMLParser({
    ignoreAttributes: false,
    isArray: (name) => name === "testsuite" || name === "testcase",
  });
  const doc = parser.parse(xml) as { testsuites: { testsuite: { testcase: Case[] }[] } };
  return doc.testsuites.testsuite.flatMap((suite) =>
    suite.testcase.map((c) => {
      const outcome = c.failure ? "failure" : c.error ? "error" : "pass";
      return { name: c["@_name"], outcome, message: (c.failure ?? c.error)?.["@_message"] ?? "" };
    }),
  );
}

describe("vf eval --fail-under", () => {
  /** reverse-text replayed from the recorded completions run, with these flags. */
  const replay = (flags: string[], env: NodeJS.ProcessEnv = {}) =>
    evalJson(
      ["reverse-text", "-m", "scripted", "-b", DEAD_URL, "--api-client-type", "openai_completions"].concat([
        "-n",
        "3",
        "-r",
        "2",
        "--cache",
        join(dir, "cache-completions"),
        "--cache-mode",
        "replay",
        ...flags,
      ]),
      env,
    );

  it("exits 0 when every gate passes, and 3 when the run scores below one, with JUnit and Markdown reports", async () => {
    const junit = join(dir, "reports", "junit.xml");
    const markdown = join(dir, "reports", "summary.md");
    const stepSummary = join(dir, "step-summary.md");
    await writeFile(stepSummary, "# earlier step\n");
    const passed = await replay(["--fail-under", "0.5", "--fail-under", "pass@2=0.5"]);
    expect(passed.code).toBe(0);
    expect(passed.stderr).toMatch(/^gate pass: reward [\d.]+ >= 0\.5$/m);

    const below = await replay(
      ["--fail-under", "0.5", "--fail-under", "lcs_reward=1.01", "--junit", junit, "--summary-md", markdown],
      { GITHUB_STEP_SUMMARY: stepSummary },
    );
    expect(below.code).toBe(3);
    expect(below.stderr).toMatch(/^gate FAIL: lcs_reward [\d.]+ < 1\.01$/m);
    const cases = junitCases(await readFile(junit, "utf8"));
    expect(cases.slice(0, 2)).toEqual([
      { name: "gate reward >= 0.5", outcome: "pass", message: "" },
      {
        name: "gate lcs_reward >= 1.01",
        outcome: "failure",
        message: expect.stringMatching(/^lcs_reward [\d.]+ < 1\.01$/),
      },
    ]);
    // One case per example after the gates.
    expect(cases.slice(2).map((c) => c.name)).toEqual([
      expect.stringMatching(/^example \d+ \(reward [\d.]+\)$/),
      expect.stringMatching(/^example \d+/),
      expect.stringMatching(/^example \d+/),
    ]);
    const summary = await readFile(markdown, "utf8");
    expect(summary).toMatch(/^## vf eval: failed$/m);
    expect(summary).toMatch(/^\| reverse-text \| lcs_reward >= 1\.01 \| [\d.]+ \| ❌ below \|$/m);
    expect(summary).toMatch(/^\| reverse-text \| scripted \| 6 \| [\d.]+ \| 0% \|$/m);
    expect(await readFile(stepSummary, "utf8")).toBe(`# earlier step\n${summary}\n`);
  });

  it("exits 1 when a gate names what the run does not measure, and 2 on a gate that is not one", async () => {
    const unknown = await replay(["--fail-under", "exact_match=0.9", "--fail-under", "pass@8=0.5"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(
      /"exact_match" is not a metric of this run: gate one of reward, lcs_reward/,
    );
    expect(unknown.stderr).toMatch(
      /pass@8 is not reported for 2 rollouts per example: gate one of pass@1, pass@2/,
    );
    const bad = await replay(["--fail-under", "high"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--fail-under "high" is not a gate: give a reward \(0\.8\)/);
  });

  it("reads cache, cache_mode and fail_under from an eval config", async () => {
    const config = join(dir, "gated.toml");
    await writeFile(
      config,
      [
        `cache = ${JSON.stringify(join(dir, "cache-completions"))}`,
        'cache_mode = "replay"',
        "fail_under = { reward = 0.5, lcs_reward = 1.01 }",
        "[[eval]]",
        'id = "reverse-text"',
        'model = "scripted"',
        `base_url = "${DEAD_URL}"`,
        'api_client_type = "openai_completions"',
        "num_examples = 3",
        "rollouts_per_example = 2",
      ].join("\n"),
    );
    const run = await runVf(["eval", config]);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/^gate pass: reward/m);
    expect(run.stderr).toMatch(/^gate FAIL: lcs_reward/m);
  });
});

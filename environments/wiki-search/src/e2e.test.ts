// `vf eval wiki-search` end to end: the real binary, the bundled MCP server it starts, and a
// scripted model on loopback. A model that searches, lists the sections, reads the right one and
// answers scores 1; one that answers without looking scores 0. Whichever way vf ends (done,
// Ctrl-C, SIGKILL), the MCP server it started ends too. With no model named, the built-in model
// runs real turns: the prompt and the tools' definitions fit its context of 1,024 tokens.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { fixedReply, type ReplyFn, referenceReplies, startScriptedServer } from "@vf-rl/core/testing";
import { evalScripted, runVf, VF_BIN } from "@vf-rl/test-support";
import { describe, expect, it } from "vitest";
import { loadEnvironment } from "./index.ts";

const packageDir = fileURLToPath(new URL("..", import.meta.url));

/** Answers every turn of every eval row as its reference conversation does. */
async function referenceModel(): Promise<ReplyFn> {
  return referenceReplies(await loadEnvironment({ numEval: 5 }));
}

async function evalWith(reply: ReplyFn) {
  const result = await evalScripted("wiki-search", {
    server: { reply },
    cwd: packageDir,
    flags: ["-n", "5", "-r", "2"],
  });
  expect(result.stderr).not.toMatch(/^error:/m);
  expect(result.code).toBe(0);
  return result;
}

/** Processes whose parent is `pid` and whose command line mentions the wiki server. */
function wikiServersOf(pid: number): number[] {
  const found: number[] = [];
  for (const task of safeList(`/proc/${pid}/task`)) {
    const children = safeRead(`/proc/${pid}/task/${task}/children`).split(" ").filter(Boolean).map(Number);
    for (const child of children) {
      if (safeRead(`/proc/${child}/cmdline`).includes("wiki-server-main")) found.push(child);
    }
  }
  return found;
}

/** The process runs (a zombie waiting to be reaped counts as gone). */
function isRunning(pid: number): boolean {
  return !/^$|^\d+ \(.*\) Z/.test(safeRead(`/proc/${pid}/stat`));
}

function safeRead(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}

function safeList(path: string): string[] {
  try {
    return readdirSync(path);
  } catch {
    return [];
  }
}

// Waits inside these tests go up to a minute (vf starting its MCP server on a loaded machine), so
// the tests get more than vitest's default 30 s.
describe("vf eval wiki-search", { timeout: 150_000 }, () => {
  it("gives a model that searches, reads the answer's section and answers the top reward", async () => {
    const { summary, requests } = await evalWith(await referenceModel());
    expect(summary).toMatchObject({ env_id: "wiki-search", num_examples: 5, rollouts_per_example: 2 });
    expect(summary.avg_reward).toBe(1);
    expect(summary.avg_metrics).toMatchObject({
      f1: 1,
      exact_match: 1,
      answer_page_read: 1,
      answer_section_read: 1,
      search_pages_calls: 1,
      view_sections_calls: 1,
      read_section_calls: 1,
      total_tool_calls: 3,
      num_turns: 4,
    });
    // Four model turns per rollout: search, list, read, answer.
    expect(requests).toHaveLength(40);
    expect(requests[0]!.tools?.map((t) => t.function.name)).toEqual([
      "search_pages",
      "view_sections",
      "read_section",
    ]);
    // The answering turns saw the sections' text, served by the MCP server.
    const answering = requests.filter((r) => r.messages.length === 8);
    expect(answering).toHaveLength(10);
    for (const r of answering) {
      expect(r.messages.at(-1)).toMatchObject({ role: "tool" });
      expect(String(r.messages.at(-1)!.content).length).toBeGreaterThan(100);
    }
  });

  it("gives a model that answers without looking nothing", async () => {
    const { summary } = await evalWith(fixedReply("xyzzy"));
    expect(summary.avg_reward).toBe(0);
    expect(summary.avg_metrics).toMatchObject({
      f1: 0,
      exact_match: 0,
      answer_page_read: 0,
      total_tool_calls: 0,
      num_turns: 1,
    });
  });

  it.each(["SIGINT", "SIGTERM", "SIGKILL"] as const)(
    "leaves no MCP server running when vf gets %s",
    async (signal) => {
      // The model never answers, so vf is mid-run, its MCP server started, when the signal comes.
      const model = await startScriptedServer({ reply: fixedReply("never sent"), latencySeconds: 600 });
      const vf = spawn(
        process.execPath,
        [VF_BIN, "eval", "wiki-search", "-m", "scripted", "-b", model.url, "-n", "2"],
        {
          cwd: packageDir,
          env: { ...process.env, NO_COLOR: "1" },
          stdio: ["ignore", "ignore", "ignore"],
        },
      );
      try {
        await expect.poll(() => model.requests.length, { timeout: 60_000, interval: 200 }).toBeGreaterThan(0);
        const servers = wikiServersOf(vf.pid!);
        expect(servers).toHaveLength(1);
        const exited = new Promise((resolve) => vf.once("exit", resolve));
        vf.kill(signal);
        // Ctrl-C (or SIGTERM) asks vf to stop cleanly, but the model never answers: a second one ends it.
        if (signal !== "SIGKILL") setTimeout(() => vf.kill(signal), 2_000).unref();
        await exited;
        await expect.poll(() => isRunning(servers[0]!), { timeout: 20_000 }).toBe(false);
      } finally {
        vf.kill("SIGKILL");
        await model.close();
      }
    },
  );
});

describe("vf eval wiki-search on the built-in model", { timeout: 150_000 }, () => {
  it("runs a real model turn in every rollout and saves the rows", async () => {
    const dir = await mkdtemp(join(tmpdir(), "vf-wiki-builtin-"));
    try {
      const result = await runVf(["eval", "wiki-search", "-n", "2", "-r", "1", "-s", "-o", dir], {
        cwd: packageDir,
      });
      expect(result.stderr).not.toMatch(/^error:/m);
      expect(result.code).toBe(0);
      expect(result.stderr).toMatch(/evaluating wiki-search with vf-builtin/);
      const [run] = readdirSync(join(dir, "evals", "wiki-search--vf-builtin"));
      const text = await readFile(
        join(dir, "evals", "wiki-search--vf-builtin", run!, "results.jsonl"),
        "utf8",
      );
      const rows = text
        .trimEnd()
        .split("\n")
        .map((line) => JSON.parse(line));
      expect(rows).toHaveLength(2);
      for (const row of rows) {
        // The first prompt fits, so the model writes a turn (it was not trained on these tools and
        // so far has not called one: the rollout ends there, no_tools_called). A prompt over its
        // context would end the rollout before any turn, prompt_too_long.
        expect(row.error).toBeNull();
        expect(row.num_turns).toBeGreaterThanOrEqual(1);
        expect(row.completion[0]).toMatchObject({ role: "assistant" });
        expect(row.token_usage.output_tokens).toBeGreaterThan(0);
        expect(row.reward).toBeGreaterThanOrEqual(0);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

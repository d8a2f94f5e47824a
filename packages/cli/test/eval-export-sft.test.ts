// `vf eval ... --export-sft FILE` through the real binary: the rollouts that pass the filters become
// chat JSONL, which `vf sft --data FILE` trains on (the round trip), and a file that cannot be
// written is refused before the evaluation starts.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { lastUserText, type ScriptedServer, startScriptedServer } from "@vf-rl/core/testing";
import { runVf } from "@vf-rl/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ITEMS_ENV, writeEnvironment } from "./fixture-envs.ts";
import { type TempProject, tempProject } from "./temp-project.ts";

const TINY = '{"dModel": 32, "nLayers": 1, "nHeads": 2, "dFF": 64, "maxSeqLen": 64}';
let project: TempProject;
let server: ScriptedServer;

beforeAll(async () => {
  project = await tempProject();
  await writeEnvironment(project.dir, "items", ITEMS_ENV);
  // Items 0 and 1 are always answered wrong; every other item wrong the first time, right the second.
  const asked = new Map<string, number>();
  server = await startScriptedServer({
    reply: (request) => {
      const text = lastUserText(request.messages);
      const n = (asked.get(text) ?? 0) + 1;
      asked.set(text, n);
      return text === "item 0" || text === "item 1" || n === 1 ? "no idea" : text;
    },
  });
});
afterAll(async () => {
  await server.close();
  await project.remove();
});

describe("vf eval --export-sft", () => {
  it("writes the rollouts that pass the filters as chat JSONL that vf sft --data trains on", async () => {
    const file = join(project.dir, "data", "best.jsonl");
    const flags = ["-n", "6", "-r", "2", "--export-sft", file, "--min-reward", "1", "--best-of-group"];
    const evaluated = await runVf(["eval", "items", "-m", "scripted", "-b", server.url, ...flags], {
      cwd: project.dir,
    });
    expect(evaluated.code).toBe(0);
    expect(evaluated.stderr).toContain(
      `exported 4 of 12 rollouts kept (dropped: 8 below the minimum reward) to ${file}`,
    );
    const rows = (await readFile(file, "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(rows).toEqual(
      [2, 3, 4, 5].map((i) => ({
        messages: [
          { role: "user", content: `item ${i}` },
          { role: "assistant", content: `item ${i}` },
        ],
      })),
    );

    const out = join(project.dir, "sft-out");
    const args = ["sft", "--data", file, "--config", TINY, "--steps", "1", "--batch-size", "2"];
    const trained = await runVf([...args, "--threads", "1", "--eval-size", "1", "-o", out], {
      cwd: project.dir,
    });
    expect(trained.stderr).not.toMatch(/^error:/m);
    expect(trained.code).toBe(0);
    expect(trained.stderr).toContain(`${file}: 4 conversations`);
    expect(trained.stdout.trim()).toBe(join(out, "final"));
  });

  it("refuses a file it cannot write before evaluating, and filters without it", async () => {
    const unwritable = await runVf(
      ["eval", "items", "-m", "scripted", "-b", server.url, "--export-sft", "/proc/x/out.jsonl"],
      { cwd: project.dir },
    );
    expect(unwritable.code).toBe(2);
    expect(unwritable.stderr).toMatch(
      /^error: --export-sft \/proc\/x\/out.jsonl: cannot write there \(.+\)/m,
    );
    expect(unwritable.stderr).not.toContain("evaluating");

    const orphan = await runVf(["eval", "items", "-m", "scripted", "-b", server.url, "--min-reward", "1"], {
      cwd: project.dir,
    });
    expect(orphan.code).toBe(2);
    expect(orphan.stderr).toMatch(/--min-reward and --best-of-group filter what --export-sft writes/);
  });
});

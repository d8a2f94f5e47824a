// Several evaluations from one `vf eval config.toml`, through the real binary against a scripted
// server: a sweep over two temperatures × two environments ending in one comparison table, a sweep
// of an environment's arguments (`[ablation.sweep.args]`) × temperatures, its
// progress side by side on a terminal (tmux draws the screen), an evaluation that fails while the
// others go on, and a block's `name` in metadata.json and the run's folder.
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { loadEnvironment as loadGsm8k } from "@vf-env/gsm8k";
import { byPrompt, lastUserText, type ScriptedServer, startScriptedServer } from "@vf-rl/core/testing";
import { runVf } from "@vf-rl/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ITEMS_ENV, WORDS_ENV, writeEnvironment } from "./fixture-envs.ts";
import { type TempProject, tempProject } from "./temp-project.ts";
import { runVfInTmux } from "./terminal.ts";

let project: TempProject;
let server: ScriptedServer;

beforeAll(async () => {
  project = await tempProject();
  await writeEnvironment(project.dir, "items", ITEMS_ENV);
  await writeEnvironment(project.dir, "words", WORDS_ENV);
  // Right at temperature 0; at 0.7 the words are said wrong (the items are echoed either way).
  server = await startScriptedServer({
    latencySeconds: 0.01,
    reply: (request) => {
      const text = lastUserText(request.messages);
      const word = /^Say (\w+)\.$/.exec(text)?.[1];
      if (word === undefined) return text;
      return request.temperature === 0.7 ? word.toUpperCase() : word;
    },
  });
});
afterAll(async () => {
  await server.close();
  await project.remove();
});

async function config(name: string, text: string): Promise<string> {
  const path = join(project.dir, name);
  await writeFile(path, `model = "scripted"\nbase_url = "${server.url}"\n${text}`);
  return path;
}

const SWEEP = `
num_examples = 3
rollouts_per_example = 2

[[ablation]]
[ablation.sweep]
id = ["items", "words"]
temperature = [0.0, 0.7]
`;

describe("a sweep of two temperatures × two environments", () => {
  it("runs each combination and ends with one table comparing them", async () => {
    const path = await config("sweep.toml", SWEEP);
    const before = server.requests.length;
    const run = await runVf(["eval", path], { cwd: project.dir });
    expect(run.stderr).not.toMatch(/^error:/m);
    expect(run.code).toBe(0);
    expect(server.requests.length - before).toBe(4 * 3 * 2);
    const temperatures = server.requests.slice(before).map((request) => request.temperature);
    expect(new Set(temperatures)).toEqual(new Set([0, 0.7]));

    const lines = run.stdout.split("\n");
    const table = lines.slice(lines.indexOf("--- Comparison ---") + 1);
    expect(table[0]).toMatch(
      /^environment +setting +model +reward \(95% CI\) +pass@1 +pass@2 +tokens out +errors$/,
    );
    const rows = table.slice(1, 5).map((row) => row.split(/ {2,}/));
    expect(rows.map((cells) => [cells[0], cells[1], cells[3]])).toEqual([
      ["items", "id=items, temperature=0", "1.000 ± 0.000"],
      ["items", "id=items, temperature=0.7", "1.000 ± 0.000"],
      ["words", "id=words, temperature=0", "1.000 ± 0.000"],
      ["words", "id=words, temperature=0.7", "0.000 ± 0.000"],
    ]);
    expect(rows.every((cells) => cells.at(-1) === "0/6")).toBe(true);
    // each evaluation's own summary comes first, naming its setting
    expect(run.stdout.match(/^--- Evaluation ---$/gm)).toHaveLength(4);
    expect(run.stdout).toContain("Setting: id=words, temperature=0.7");
  });

  it("shows the evaluations' progress side by side on a terminal, redrawn in place", async () => {
    const path = await config("sweep-tty.toml", SWEEP);
    const run = await runVfInTmux(["eval", path, "-A"], { cwd: project.dir, columns: 150, rows: 50 });
    expect(run.code).toBe(0);
    const screen = run.output.split("\n");
    const labels = [
      "items [id=items, temperature=0]",
      "items [id=items, temperature=0.7]",
      "words [id=words, temperature=0]",
      "words [id=words, temperature=0.7]",
    ];
    // The final display: one line per evaluation, each once on the whole screen and scrollback.
    const shown = labels.map((label) => screen.filter((line) => line.startsWith(`${label} `)));
    for (const lines of shown) {
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/ done · 6\/6 rollouts · [\d.]+\/s · reward \d\.\d{3} · errors 0$/);
    }
    const block = labels.map((label) => screen.findIndex((line) => line.startsWith(`${label} `)));
    expect(block.map((row) => row - block[0]!)).toEqual([0, 1, 2, 3]);
    expect(screen.indexOf("--- Comparison ---")).toBeGreaterThan(block[3]!);
    expect(screen.every((line) => line.length <= 150)).toBe(true);
  });
});

describe("a sweep of an environment's arguments", () => {
  it("runs gsm8k strict and lenient at two temperatures, each cell in the comparison table", async () => {
    // The right number, said plainly at temperature 0 (only lenient scoring counts it) and boxed at 0.7.
    const { inputs } = await (await loadGsm8k({ numEval: 3 })).inputs({ split: "eval" });
    const answers = new Map(inputs.map((input) => [lastUserText(input.prompt), input.answer]));
    const gsm8k = await startScriptedServer({
      reply: byPrompt((messages, request) => {
        const answer = answers.get(lastUserText(messages)) ?? "?";
        return request.temperature === 0 ? `It comes to ${answer}.` : `So \\boxed{${answer}}.`;
      }),
    });
    try {
      const path = join(project.dir, "sweep-args.toml");
      await writeFile(
        path,
        `model = "scripted"
base_url = "${gsm8k.url}"
num_examples = 3
rollouts_per_example = 1

[[ablation]]
id = "gsm8k"
[ablation.sweep]
temperature = [0.0, 0.7]
[ablation.sweep.args]
lenient = [false, true]
`,
      );
      const run = await runVf(["eval", path], { cwd: project.dir });
      expect(run.stderr).not.toMatch(/^error:/m);
      expect(run.code).toBe(0);
      expect(gsm8k.requests).toHaveLength(4 * 3);

      const lines = run.stdout.split("\n");
      const first = lines.indexOf("--- Comparison ---") + 2; // after the title and the header
      const rows = lines.slice(first, first + 4).map((row) => row.split(/ {2,}/));
      expect(rows.map((cells) => [cells[0], cells[1], cells[3]])).toEqual([
        ["gsm8k", "temperature=0, args.lenient=false", "0.000 ± 0.000"],
        ["gsm8k", "temperature=0, args.lenient=true", "1.000 ± 0.000"],
        ["gsm8k", "temperature=0.7, args.lenient=false", "1.000 ± 0.000"],
        ["gsm8k", "temperature=0.7, args.lenient=true", "1.000 ± 0.000"],
      ]);
      expect(run.stdout).toContain("Setting: temperature=0, args.lenient=true");
    } finally {
      await gsm8k.close();
    }
  });
});

describe("several evaluations", () => {
  it("go on when one fails, which is named in one line, and the command exits 1", async () => {
    const path = await config(
      "broken.toml",
      `num_examples = 2\nrollouts_per_example = 1\n[[eval]]\nid = "items"\n[[eval]]\nid = "no-such-env"\n[[eval]]\nid = "words"\n`,
    );
    const run = await runVf(["eval", path], { cwd: project.dir });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^error: no-such-env: .*no-such-env/m);
    const lines = run.stdout.split("\n");
    const table = lines.slice(lines.indexOf("--- Comparison ---") + 2).filter((line) => line !== "");
    expect(table.map((row) => row.split(/ +/)[0])).toEqual(["items", "words"]);
  });

  it("save a block's name in metadata.json and name the run's folder by it, as verifiers does", async () => {
    const path = await config(
      "named.toml",
      `num_examples = 2\nrollouts_per_example = 1\n[[eval]]\nid = "items"\nname = "baseline"\n[[eval]]\nid = "words"\n`,
    );
    const out = join(project.dir, "named-out");
    const run = await runVf(["eval", path, "-s", "-o", out], { cwd: project.dir });
    expect(run.code).toBe(0);
    expect((await readdir(join(out, "evals"))).sort()).toEqual(["baseline--scripted", "words--scripted"]);
    const [runId] = await readdir(join(out, "evals", "baseline--scripted"));
    const metadata = JSON.parse(
      await readFile(join(out, "evals", "baseline--scripted", runId!, "metadata.json"), "utf8"),
    );
    expect(metadata).toMatchObject({ env_id: "items", name: "baseline" });
    expect(run.stdout).toContain("Environment: baseline (items)");
    const [wordsRun] = await readdir(join(out, "evals", "words--scripted"));
    const words = JSON.parse(
      await readFile(join(out, "evals", "words--scripted", wordsRun!, "metadata.json"), "utf8"),
    );
    expect(words).not.toHaveProperty("name");
  });

  it("share one connection to a model reached the same way: the built-in model starts once", async () => {
    // Blocks that differ only in how they run (phase bounds, a name) reach the model the same way.
    const path = join(project.dir, "shared-model.toml");
    await writeFile(
      path,
      `num_examples = 1\nrollouts_per_example = 1\nmax_tokens = 2\n[[eval]]\nid = "items"\nmax_concurrent_generation = 1\n[[eval]]\nid = "words"\nmax_concurrent_scoring = 1\nname = "words-run"\n`,
    );
    const run = await runVf(["eval", path], { cwd: project.dir });
    expect(run.stderr).not.toMatch(/^error:/m);
    expect(run.code).toBe(0);
    const urls = [...run.stderr.matchAll(/^evaluating .+? with \S+ \((http:[^)]+)\)/gm)].map((m) => m[1]);
    expect(urls).toHaveLength(2);
    expect(urls[1]).toBe(urls[0]);
  });
});

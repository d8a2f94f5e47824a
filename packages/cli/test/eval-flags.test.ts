// verifiers' progress, scoring and lookup flags of `vf eval`, through the real binary against a
// scripted server: -d/--disable-tui (a plain line per update, also on a terminal),
// -N/--no-interleave-scoring (nothing is scored before every rollout is generated),
// --max-concurrent-generation and --max-concurrent-scoring (each phase bounded within -c), and
// --env-dir-path (where a bare id is looked up).
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import {
  concurrencyProbe,
  lastUserText,
  type ScriptedServer,
  startScriptedServer,
} from "@vf-rl/core/testing";
import { runVf } from "@vf-rl/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ITEMS_ENV, JUDGED_ENV, WORDS_ENV, writeEnvironment } from "./fixture-envs.ts";
import { type TempProject, tempProject } from "./temp-project.ts";
import { runVfInScript } from "./terminal.ts";

let project: TempProject;
let server: ScriptedServer;

beforeAll(async () => {
  project = await tempProject();
  await writeEnvironment(project.dir, "items", ITEMS_ENV);
  await writeEnvironment(project.dir, "judged", JUDGED_ENV);
  // Outside ./environments: found only through --env-dir-path.
  await writeEnvironment(join(project.dir, "shelf"), "stored", WORDS_ENV);
  server = await startScriptedServer({ latencySeconds: 0.02 });
});
afterAll(async () => {
  await server.close();
  await project.remove();
});

const model = () => ["-m", "scripted", "-b", server.url];

describe("-d/--disable-tui", () => {
  it("prints one plain progress line per finished group", async () => {
    const run = await runVf(["eval", "items", ...model(), "-n", "20", "-r", "1", "-d"], { cwd: project.dir });
    expect(run.code).toBe(0);
    for (let done = 1; done <= 20; done++) {
      expect(run.stderr).toMatch(new RegExp(`^items ${done}/20 rollouts · `, "m"));
    }
    expect(run.stderr).toMatch(/^items done · 20\/20 rollouts/m);
  });

  it("writes lines, not a display redrawn in place, on a terminal too", async () => {
    const args = ["eval", "items", ...model(), "-n", "6", "-r", "1"];
    const live = await runVfInScript(args, { cwd: project.dir });
    expect(live.code).toBe(0);
    expect(live.output).toMatch(/\x1b\[J/); // the live display erases and redraws itself

    const plain = await runVfInScript([...args, "-d"], { cwd: project.dir });
    expect(plain.code).toBe(0);
    expect(plain.output).toMatch(/^items 6\/6 rollouts · /m);
    expect(plain.output).not.toMatch(/\x1b\[(\d*[AJK])/);
  });
});

describe("-N/--no-interleave-scoring", () => {
  // How many model requests the server had received when vf reported its first scored group. One
  // rollout at a time, each answered after 100 ms, leaves room for a slow reader of vf's output.
  const requestsAtFirstProgress = async (flags: string[]) => {
    const slow = await startScriptedServer({ latencySeconds: 0.1 });
    let seen: number | undefined;
    try {
      const args = ["eval", "items", "-m", "scripted", "-b", slow.url, "-n", "6", "-r", "2", "-c", "1", "-d"];
      const run = await runVf([...args, ...flags], {
        cwd: project.dir,
        onStderr: (stderr) => {
          if (seen === undefined && /^items \d+\/12 rollouts/m.test(stderr)) seen = slow.requests.length;
        },
      });
      expect(run.code).toBe(0);
      expect(run.stdout).toContain("reward: avg - 1, std - 0");
    } finally {
      await slow.close();
    }
    return seen;
  };

  it("scores only after every rollout is generated", async () => {
    expect(await requestsAtFirstProgress(["-N"])).toBe(12);
  });

  it("scores each group as it finishes without it", async () => {
    expect(await requestsAtFirstProgress([])).toBeLessThan(12);
  });
});

describe("--max-concurrent-generation and --max-concurrent-scoring", () => {
  // The model's calls are generation; the judge's (one per rollout) are scoring.
  const peaks = async (flags: string[], config?: string) => {
    // Gated when unbounded, so that the overlap needs no timing (see concurrencyProbe).
    const model = concurrencyProbe(flags.length === 0 && !config ? 3 : undefined);
    const judge = concurrencyProbe(flags.length === 0 && !config ? 2 : undefined);
    const modelServer = await startScriptedServer({
      reply: async (request) => {
        await model.pass();
        return lastUserText(request.messages);
      },
    });
    const judgeServer = await startScriptedServer({
      reply: async () => {
        await judge.pass();
        return "yes";
      },
    });
    try {
      const target = [
        "-m",
        "scripted",
        "-b",
        modelServer.url,
        "-a",
        JSON.stringify({ judge_url: judgeServer.url }),
      ];
      let args = ["eval", "judged", ...target, "-n", "6", "-r", "1", "-c", "6", ...flags];
      if (config) {
        const file = join(project.dir, "bounds.toml");
        const block = `[[eval]]\nid = "judged"\nmodel = "scripted"\napi_base_url = "${modelServer.url}"\nargs = { judge_url = "${judgeServer.url}" }\nnum_examples = 6\nrollouts_per_example = 1\nmax_concurrent = 6\n`;
        await writeFile(file, `${config}\n${block}`);
        args = ["eval", file];
      }
      const run = await runVf(args, { cwd: project.dir });
      expect(run.code).toBe(0);
      expect(run.stdout).toContain("reward: avg - 1, std - 0");
      expect(judgeServer.requests).toHaveLength(6);
    } finally {
      await modelServer.close();
      await judgeServer.close();
    }
    return { generation: model.peak, scoring: judge.peak };
  };

  it("bounds generation and scoring apart, within -c", async () => {
    const flags = ["--max-concurrent-generation", "2", "--max-concurrent-scoring", "1"];
    expect(await peaks(flags)).toEqual({ generation: 2, scoring: 1 });
  });

  it("takes them from a config's keys", async () => {
    const keys = "max_concurrent_generation = 2\nmax_concurrent_scoring = 1";
    expect(await peaks([], keys)).toEqual({ generation: 2, scoring: 1 });
  });

  it("lets both phases use all of -c without them", async () => {
    const { generation, scoring } = await peaks([]);
    expect(generation).toBeGreaterThanOrEqual(3);
    expect(scoring).toBeGreaterThanOrEqual(2);
  });

  it("refuses a bound above -c", async () => {
    const run = await runVf(["eval", "items", ...model(), "-c", "4", "--max-concurrent-scoring", "8"], {
      cwd: project.dir,
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--max-concurrent-scoring 8 is above -c 4: .*raise -c/);
  });
});

describe("--env-dir-path", () => {
  it("looks a bare id up in the given folder instead of ./environments", async () => {
    const args = ["eval", "stored", ...model(), "-n", "2", "-r", "1"];
    const found = await runVf([...args, "--env-dir-path", "shelf/environments"], { cwd: project.dir });
    expect(found.code).toBe(0);
    expect(found.stderr).toMatch(/^evaluating stored with scripted/m);

    const missed = await runVf(args, { cwd: project.dir });
    expect(missed.code).not.toBe(0);
    expect(missed.stderr).toMatch(/unknown environment "stored"/);
  });

  it("is env_dir_path in a config", async () => {
    const file = join(project.dir, "shelf.toml");
    await writeFile(
      file,
      `env_dir_path = "shelf/environments"\nmodel = "scripted"\napi_base_url = "${server.url}"\n[[eval]]\nid = "stored"\nnum_examples = 2\nrollouts_per_example = 1\n`,
    );
    const run = await runVf(["eval", file], { cwd: project.dir });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/^evaluating stored with scripted/m);
  });
});

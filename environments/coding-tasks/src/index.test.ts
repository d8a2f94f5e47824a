// The taskset as vf loads it: its package's vf field, its arguments, and the tasks each split yields.
import { readFileSync } from "node:fs";
import { EnvArgsError, UserError } from "@vf-rl/core/errors";
import { EnvPackageJson, findEnvironment } from "@vf-rl/core/loading";
import { describe, expect, it } from "vitest";
import { CATALOG, loadTaskset, referenceFix } from "./index.ts";
import { readTaskFolder } from "./task-folder.ts";
import { unreadTrace } from "./test-support.ts";

const packageDir = new URL("..", import.meta.url).pathname.replace(/\/$/, "");

describe("the package", () => {
  it("declares a taskset in its vf field, which core's manifest reads and vf finds by id", () => {
    const manifest = EnvPackageJson.parse(JSON.parse(readFileSync(`${packageDir}/package.json`, "utf8")));
    expect(manifest.vf).toMatchObject({ id: "coding-tasks", kind: "taskset" });
    expect(findEnvironment("coding-tasks", { cwd: `${packageDir}/../..` }).dir).toBe(packageDir);
  });
});

describe("loadTaskset", () => {
  it("yields 8 training and 5 evaluation tasks, each a user's request with its repository's files", async () => {
    const taskset = await loadTaskset();
    const train = await taskset.tasks({ split: "train" });
    const evaluation = await taskset.tasks({ split: "eval" });
    expect(train.map((t) => t.id)).toEqual(CATALOG.filter((e) => e.split === "train").map((e) => e.id));
    expect(evaluation.map((t) => t.exampleId)).toEqual([0, 1, 2, 3, 4]);
    const paginate = train[0]!;
    expect(paginate).toMatchObject({
      id: "js-paginate",
      answer: "",
      info: { language: "javascript", kind: "off-by-one", check: "hidden-tests" },
      network: { allow: [], block: [] },
      limits: { timeSeconds: 600, maxTurns: 30 },
    });
    expect(paginate.prompt).toHaveLength(1);
    expect(paginate.prompt[0]!.content).toMatch(
      /^The first page of our product list shows the wrong products/,
    );
    expect(paginate.prompt[0]!.content).toContain("they run with `node --test`");
    expect(Object.keys(paginate.files).sort()).toEqual([
      "README.md",
      "package.json",
      "src/paginate.js",
      "tests/paginate_test.js",
    ]);
  });

  it("keeps every task's hidden tests and reference fix out of what the agent gets", async () => {
    const taskset = await loadTaskset();
    for (const split of ["train", "eval"] as const) {
      for (const task of await taskset.tasks({ split })) {
        const folder = await readTaskFolder(task.id);
        const given = JSON.stringify(task);
        for (const text of Object.values(folder.hidden)) expect(given).not.toContain(JSON.stringify(text));
        for (const [path, text] of Object.entries(folder.fix)) {
          expect(task.files[path], `${task.id}: ${path}`).not.toBe(text);
        }
      }
    }
  });

  it("gives an answer-file task its expected answer", async () => {
    const taskset = await loadTaskset({ languages: ["javascript"] });
    const logs = (await taskset.tasks({ split: "eval" })).find((t) => t.id === "answer-js-logs")!;
    expect(logs.answer).toBe("6");
    expect(logs.info.check).toBe("answer-file");
    expect(logs.prompt[0]!.content).toContain("answer.txt");
  });

  it("selects languages, cuts each split to its size, and numExamples takes the first", async () => {
    const python = await loadTaskset({ languages: ["python"], numEval: 2, maxTurns: 5 });
    expect((await python.tasks({ split: "eval" })).map((t) => t.id)).toEqual(["py-median", "py-extension"]);
    const train = await python.tasks({ split: "train" });
    expect(train.map((t) => t.id)).toEqual([
      "py-chunked",
      "py-leap-year",
      "py-note-tags",
      "answer-py-inventory",
    ]);
    expect(train.every((t) => t.limits.maxTurns === 5)).toBe(true);
    expect((await python.tasks({ split: "train", numExamples: 1 })).map((t) => t.id)).toEqual(["py-chunked"]);
  });

  it("refuses arguments it cannot honour, naming each", async () => {
    await expect(loadTaskset({ numTrain: 9 })).rejects.toThrow(
      'bad env args for "coding-tasks": numTrain: 9 is more than the 8 train tasks in javascript and python: ask for 8 or fewer, or leave it out for all',
    );
    await expect(loadTaskset({ languages: ["javascript"], numEval: 4 })).rejects.toThrow(
      "numEval: 4 is more than the 3 eval tasks in javascript",
    );
    await expect(loadTaskset({ languages: ["rust"] })).rejects.toThrow(
      /languages\.0: Invalid option: expected one of "javascript"\|"python"/,
    );
    await expect(loadTaskset({ languages: [] })).rejects.toThrow(/languages/);
    await expect(loadTaskset({ numtrain: 2 })).rejects.toThrow(/numtrain/);
    await expect(loadTaskset({ numTrain: 0 })).rejects.toBeInstanceOf(EnvArgsError);
  });

  it("scores only its own tasks", async () => {
    const javascript = await loadTaskset({ languages: ["javascript"] });
    const [task] = await (await loadTaskset({ languages: ["python"] })).tasks({ split: "train" });
    const runtime = { workdir: "/nowhere" } as never;
    await expect(javascript.score({ task: task!, trace: unreadTrace, runtime })).rejects.toThrow(
      /task "py-chunked" is not a task of this coding-tasks taskset \(js-paginate, .*\): score the tasks its tasks\(\) gave/,
    );
  });
});

describe("referenceFix", () => {
  it("gives the fixed files, or an answer task's answer file", async () => {
    expect(Object.keys(await referenceFix("py-median"))).toEqual(["numkit/summary.py"]);
    expect(await referenceFix("answer-py-inventory")).toEqual({ "answer.txt": "6028.52\n" });
  });

  it("names the tasks when asked for an unknown one", async () => {
    const refused = referenceFix("js-nope");
    await expect(refused).rejects.toBeInstanceOf(UserError);
    await expect(referenceFix("js-nope")).rejects.toThrow(
      /"js-nope" is not a coding task: name one of js-paginate, /,
    );
  });
});

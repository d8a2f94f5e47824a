// `vf eval -H/--save-to-hf-hub` and `-D/--hf-hub-dataset-name`, through the real binary and the
// official @huggingface/hub client, against a stand-in for the Hub on loopback (HF_ENDPOINT): the
// saved run becomes a dataset of the token's account (or the one -D names), with its rows as the
// train split, its metadata.json and a dataset card.
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type ScriptedServer, startScriptedServer } from "@vf-rl/core/testing";
import { runVf } from "@vf-rl/test-support";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ITEMS_ENV, writeEnvironment } from "./fixture-envs.ts";
import { type FakeHfHub, startFakeHfHub } from "./hf-hub-server.ts";
import { type TempProject, tempProject } from "./temp-project.ts";

const TOKEN = "hf_test_write_token";
const DATA = "data/train-00000-of-00001.jsonl";

let project: TempProject;
let model: ScriptedServer;
let hub: FakeHfHub;

beforeAll(async () => {
  project = await tempProject();
  await writeEnvironment(project.dir, "items", ITEMS_ENV);
  model = await startScriptedServer();
});
afterAll(async () => {
  await model.close();
  await project.remove();
});
beforeEach(async () => {
  hub = await startFakeHfHub({ token: TOKEN, user: "tester" });
});
afterEach(async () => {
  await hub.close();
});

const evalItems = (flags: string[], token = TOKEN) =>
  runVf(["eval", "items", "-m", "scripted", "-b", model.url, ...flags], {
    cwd: project.dir,
    env: { HF_TOKEN: token, HF_ENDPOINT: hub.url },
  });

/** The run folder named in vf's "uploaded" line's run: the newest under outputs/evals/items--scripted. */
async function savedRun(): Promise<{ rows: Buffer; metadata: Buffer }> {
  const parent = join(project.dir, "outputs", "evals", "items--scripted");
  const runs = await Promise.all(
    (await readdir(parent)).map(async (id) => {
      const metadata = await readFile(join(parent, id, "metadata.json"));
      return { id, metadata, date: JSON.parse(metadata.toString()).date as string };
    }),
  );
  const newest = runs.sort((a, b) => a.date.localeCompare(b.date)).at(-1)!;
  return { rows: await readFile(join(parent, newest.id, "results.jsonl")), metadata: newest.metadata };
}

describe("-H/--save-to-hf-hub", () => {
  it("uploads the saved run as a dataset of the token's account", async () => {
    const run = await evalItems(["-n", "4", "-r", "2", "-H"]);
    expect(run.code).toBe(0);
    const repoId = "tester/items_scripted_n4_r2";
    expect(run.stderr).toContain(
      `uploaded 8 rollouts to the Hugging Face dataset ${hub.url}/datasets/${repoId}`,
    );

    const repo = hub.repos.get(repoId)!;
    expect(repo.type).toBe("dataset");
    expect(repo.commits).toEqual(["vf eval: 8 rollouts of items by scripted"]);
    expect([...repo.files.keys()].sort()).toEqual(["README.md", DATA, "metadata.json"]);
    // The rows and metadata exactly as saved; the rows went through LFS, as the Hub asked.
    const saved = await savedRun();
    expect(repo.files.get(DATA)).toEqual(saved.rows);
    expect(repo.files.get("metadata.json")).toEqual(saved.metadata);
    const rows = repo.files
      .get(DATA)!
      .toString()
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(rows).toHaveLength(8);
    expect(rows.every((row) => row.reward === 1)).toBe(true);
    expect(hub.requests.some((request) => request.startsWith("PUT /lfs-objects/"))).toBe(true);
    const card = repo.files.get("README.md")!.toString();
    expect(card).toMatch(
      /^---\nconfigs:\n- config_name: default\n {2}data_files:\n {2}- split: train\n {4}path: data\/train-00000-of-00001.jsonl\n/,
    );
    expect(card).toContain("| rollouts | 8 |");
    expect(card).toContain("| average reward | 1 |");
  });

  it("uploads to the dataset -D names, a new commit when it exists", async () => {
    const first = await evalItems(["-n", "4", "-r", "1", "-H", "-D", "team/item-evals"]);
    expect(first.code).toBe(0);
    const second = await evalItems(["-n", "2", "-r", "1", "-H", "-D", "team/item-evals"]);
    expect(second.code).toBe(0);
    const repo = hub.repos.get("team/item-evals")!;
    expect(repo.commits).toHaveLength(2);
    expect(repo.files.get(DATA)!.toString().trim().split("\n")).toHaveLength(2);
    expect(hub.requests.filter((request) => request === "POST /api/repos/create")).toHaveLength(2);
    expect([...hub.repos.keys()]).toEqual(["team/item-evals"]);
  });

  it("reads save_to_hf_hub and hf_hub_dataset_name from a config", async () => {
    const file = join(project.dir, "hf.toml");
    await writeFile(
      file,
      `model = "scripted"\napi_base_url = "${model.url}"\nsave_to_hf_hub = true\n[[eval]]\nid = "items"\nnum_examples = 3\nrollouts_per_example = 1\nhf_hub_dataset_name = "config-evals"\n`,
    );
    const run = await runVf(["eval", file], {
      cwd: project.dir,
      env: { HF_TOKEN: TOKEN, HF_ENDPOINT: hub.url },
    });
    expect(run.code).toBe(0);
    const rows = hub.repos.get("tester/config-evals")?.files.get(DATA)?.toString().trim().split("\n");
    expect(rows).toHaveLength(3);
  });

  it("refuses before evaluating when the token is missing or refused", async () => {
    const before = model.requests.length;
    const missing = await evalItems(["-n", "2", "-r", "1", "-H"], "");
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(
      /-H\/--save-to-hf-hub needs a Hugging Face token with write access in HF_TOKEN/,
    );
    const refused = await evalItems(["-n", "2", "-r", "1", "-H"], "hf_not_this_one");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /the Hugging Face Hub at http:\/\/127\.0\.0\.1:\d+ refused HF_TOKEN \(HTTP 401/,
    );
    expect(model.requests.length).toBe(before);
    expect(hub.repos.size).toBe(0);
  });

  it("refuses -D without -H, and a name the Hub would refuse", async () => {
    const alone = await evalItems(["-D", "my-evals"]);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toMatch(/names the dataset -H\/--save-to-hf-hub .* uploads to: add -H/);
    const bad = await evalItems(["-H", "-D", "my evals!"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/-D\/--hf-hub-dataset-name "my evals!" is not a Hugging Face dataset name/);
  });
});

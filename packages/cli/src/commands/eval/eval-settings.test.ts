import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stringify } from "smol-toml";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadEvalConfig } from "./eval-config.ts";
import {
  applySettings,
  EVAL_SETTINGS,
  type EvalSetting,
  emptyDraft,
  flagParser,
  type SettingKind,
  shortFlag,
} from "./eval-settings.ts";

/** A value of each kind as a flag writes it, and as a config key holds it. */
const SAMPLES: Record<SettingKind, { flag: string | true; config: unknown }> = {
  text: { flag: "abc", config: "abc" },
  url: { flag: "http://127.0.0.1:9/v1", config: "http://127.0.0.1:9/v1" },
  "count-or-all": { flag: "7", config: 7 },
  "positive-int": { flag: "4", config: 4 },
  "non-negative-int": { flag: "0", config: 0 },
  int: { flag: "-3", config: -3 },
  temperature: { flag: "0.25", config: 0.25 },
  timeout: { flag: "30", config: 30 },
  "json-object": { flag: '{"k": 1}', config: { k: 1 } },
  sampling: { flag: '{"top_p": 0.9}', config: { top_p: 0.9 } },
  switch: { flag: true, config: true },
  list: { flag: "a,b", config: ["a", "b"] },
  headers: { flag: "X-A: 1", config: { "X-A": "1" } },
  "headers-from-state": { flag: "X-S: example_id", config: { "X-S": "example_id" } },
  provider: { flag: "openrouter", config: "openrouter" },
  "client-type": { flag: "openai_responses", config: "openai_responses" },
  "dataset-name": { flag: "me/evals", config: "me/evals" },
  runtime: { flag: "subprocess", config: "subprocess" },
  "cache-mode": { flag: "replay", config: "replay" },
  gates: { flag: "pass@4=0.5", config: ["pass@4=0.5"] },
};

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "vf-evalsettings-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The spec fields `setting` sets from `value` (a parsed flag, or a config's value). */
function fromFlag(setting: EvalSetting): Record<string, unknown> {
  const sample = SAMPLES[setting.kind].flag;
  const parse = flagParser(setting.kind, shortFlag(setting));
  const value =
    sample === true ? !setting.flags.includes("--no-") : parse ? parse(sample, undefined as never) : sample;
  const spec = emptyDraft();
  applySettings(spec, new Map([[setting, value]]));
  return spec;
}

describe("an evaluation's settings, each declared once", () => {
  it("have a flag and a config key each, all different", () => {
    const flags = EVAL_SETTINGS.flatMap((s) => s.flags.split(/[ ,]+/).filter((f) => f.startsWith("-")));
    const keys = EVAL_SETTINGS.flatMap((s) => s.config ?? []);
    expect(new Set(flags).size).toBe(flags.length);
    expect(new Set(keys).size).toBe(keys.length);
    expect(EVAL_SETTINGS.filter((s) => !s.config?.length).map((s) => s.flags)).toEqual([]);
  });

  it.each(EVAL_SETTINGS.map((s) => [s.flags, s] as const))(
    "%s sets the spec as its config key does",
    async (_flags, setting) => {
      const key = setting.config![0]!;
      const value =
        setting.kind === "switch" && setting.flags.includes("--no-") ? false : SAMPLES[setting.kind].config;
      const path = join(dir, "eval.toml");
      await writeFile(path, stringify({ eval: [{ id: "e", [key]: value }] }));
      const [fromConfig] = await loadEvalConfig(path);
      const expected = fromFlag(setting);
      for (const [field, set] of Object.entries(expected)) {
        if (typeof set === "object" && set !== null && Object.keys(set).length === 0) continue;
        expect(fromConfig).toHaveProperty([field], set);
      }
    },
  );

  it("given on the command line with a config, override every evaluation's own", async () => {
    const path = join(dir, "eval.toml");
    await writeFile(
      path,
      stringify({
        num_examples: 50,
        eval: [
          { id: "a", sampling: { temperature: 0.9, max_tokens: 100 } },
          { id: "b", num_examples: 10, model: "m" },
        ],
      }),
    );
    // vf eval eval.toml -n 2 -T 0.1 -m other
    const specs = await loadEvalConfig(path, [
      { path: ["num_examples"], value: 2, flag: "-n" },
      { path: ["temperature"], value: 0.1, flag: "-T" },
      { path: ["model"], value: "other", flag: "-m" },
    ]);
    expect(specs).toEqual([
      expect.objectContaining({
        envId: "a",
        numExamples: 2,
        model: "other",
        sampling: { temperature: 0.1, max_tokens: 100 },
      }),
      expect.objectContaining({ envId: "b", numExamples: 2, model: "other", sampling: { temperature: 0.1 } }),
    ]);
  });
});

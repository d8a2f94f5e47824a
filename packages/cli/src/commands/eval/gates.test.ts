// Gates read from a flag or a config, measured on a run's metadata, and the reports they make.
import { RunMetadata } from "@vf-rl/core/results";
import { describe, expect, it } from "vitest";
import { GatesConfig } from "./eval-config.ts";
import { checkGates, junitXml, markdownSummary, parseGate, xmlEscape } from "./gates.ts";

const metadata = RunMetadata.parse({
  env_id: "e",
  model: "m",
  num_examples: 2,
  rollouts_per_example: 2,
  avg_reward: 0.75,
  avg_metrics: { exact_match: 0.5 },
  pass_at_k: { "1": 0.75, "2": 1 },
});

describe("gates", () => {
  it("read a bare number as the reward, and name=value as a metric or pass@k", () => {
    expect(parseGate("0.8")).toEqual({ measure: "reward", threshold: 0.8 });
    expect(parseGate(" exact_match = 0.9 ")).toEqual({ measure: "exact_match", threshold: 0.9 });
    expect(parseGate("pass@4=0.5")).toEqual({ measure: "pass@4", threshold: 0.5 });
    expect(() => parseGate("high")).toThrow(/--fail-under "high" is not a gate: give a reward \(0\.8\)/);
    expect(() => parseGate("pass@0=1")).toThrow(/k of pass@k is at least 1/);
  });

  it("take a config's number, text, list or table alike", () => {
    expect(GatesConfig.parse(0.8)).toEqual([{ measure: "reward", threshold: 0.8 }]);
    expect(GatesConfig.parse(["pass@2=1", 0.5])).toEqual([
      { measure: "pass@2", threshold: 1 },
      { measure: "reward", threshold: 0.5 },
    ]);
    expect(GatesConfig.parse({ reward: 0.5, "pass@2": 1 })).toEqual([
      { measure: "reward", threshold: 0.5 },
      { measure: "pass@2", threshold: 1 },
    ]);
    expect(GatesConfig.safeParse("x=y").success).toBe(false);
  });

  it("pass at the threshold, fail below it, and say what a run does not report", () => {
    const results = checkGates(
      [
        parseGate("0.75"),
        parseGate("exact_match=0.6"),
        parseGate("pass@2=1"),
        parseGate("pass@4=1"),
        parseGate("f1=1"),
      ],
      metadata,
    );
    expect(results.map((r) => [r.passed, r.value, r.line])).toEqual([
      [true, 0.75, "reward 0.75 >= 0.75"],
      [false, 0.5, "exact_match 0.5 < 0.6"],
      [true, 1, "pass@2 1 >= 1"],
      [
        false,
        null,
        expect.stringMatching(
          /^pass@4 is not reported for 2 rollouts per example: gate one of pass@1, pass@2/,
        ),
      ],
      [false, null, '"f1" is not a metric of this run: gate one of reward, exact_match or pass@k'],
    ]);
  });

  it("escape what XML cannot hold as text", () => {
    expect(xmlEscape(`a<b & "c" 'd'>\u0001`)).toBe("a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;");
  });

  it("report a run that could not run as an error, in JUnit and in Markdown", () => {
    const runs = [{ name: "e | x", metadata: null, records: [], gates: [], error: "no <model>" }];
    expect(junitXml(runs)).toContain(
      '<testcase classname="vf-eval.e | x" name="run"><error message="no &lt;model&gt;"/>',
    );
    expect(markdownSummary(runs)).toContain("| e \\| x | | | | could not run: no <model> |");
  });
});

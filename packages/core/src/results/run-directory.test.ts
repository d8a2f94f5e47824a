import { describe, expect, it } from "vitest";
import { UserError } from "../errors.ts";
import { envModelDirectory, newRunId, runDirectory } from "./run-directory.ts";

describe("runDirectory", () => {
  it("follows verifiers' layout, with / in the model written as --", () => {
    expect(
      runDirectory({ outputDir: "outputs", envId: "gsm8k", model: "openai/gpt-4.1-mini", runId: "1a2b3c4d" }),
    ).toBe("outputs/evals/gsm8k--openai--gpt-4.1-mini/1a2b3c4d");
  });

  it("ends an agent run's folder with its harness, as verifiers v1 names its runs", () => {
    const run = {
      outputDir: "outputs",
      envId: "coding-tasks",
      model: "openai/gpt-4.1-mini",
      runId: "1a2b3c4d",
    };
    expect(runDirectory({ ...run, harness: "claude-code" })).toBe(
      "outputs/evals/coding-tasks--openai--gpt-4.1-mini--claude-code/1a2b3c4d",
    );
  });

  it("keeps a Hub id owner/name in one folder", () => {
    expect(envModelDirectory({ outputDir: "o", envId: "alice/wordle@1.2.0", model: "m" })).toBe(
      "o/evals/alice--wordle@1.2.0--m",
    );
  });

  it("refuses a run id that is not a plain folder name", () => {
    expect(() => runDirectory({ outputDir: "o", envId: "e", model: "m", runId: "../x" })).toThrow(UserError);
    expect(() => runDirectory({ outputDir: "o", envId: "e", model: "m", runId: ".." })).toThrow(/run id/);
  });
});

describe("newRunId", () => {
  it("is 8 random hex characters", () => {
    const ids = new Set(Array.from({ length: 50 }, newRunId));
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}$/);
    expect(ids.size).toBe(50);
  });
});

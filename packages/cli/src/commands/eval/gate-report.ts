/**
 * What `vf eval` leaves for a CI job: a JUnit XML file (`--junit`: a test suite per evaluation, a
 * test case per gate and one per example) and a Markdown summary (`--summary-md`, and appended to
 * `$GITHUB_STEP_SUMMARY` when GitHub Actions sets it). Both are written from the same gated runs.
 */
import { appendFile, mkdir, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import type { RolloutRecord, RunMetadata } from "@vf-rl/core/results";
import type { GateResult } from "./gates.ts";

/** One evaluation as the reports show it: its name, how it ended, and its gates. */
export interface GatedRun {
  /** The evaluation's label on the progress board (env id, and its config label). */
  name: string;
  /** Null: it could not run (the error's line is in `error`). */
  metadata: RunMetadata | null;
  records: readonly RolloutRecord[];
  gates: GateResult[];
  /** Why it could not run, or stopped early. */
  error?: string;
}

/** XML text with the five special characters escaped, and characters XML 1.0 cannot hold dropped. */
export function xmlEscape(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

/** An example's mean reward, whether any rollout failed, and its first error. */
function examples(records: readonly RolloutRecord[]) {
  const byExample = new Map<number, RolloutRecord[]>();
  for (const record of records) {
    const rows = byExample.get(record.example_id) ?? [];
    rows.push(record);
    byExample.set(record.example_id, rows);
  }
  return [...byExample]
    .sort(([a], [b]) => a - b)
    .map(([id, rows]) => ({
      id,
      reward: rows.reduce((sum, row) => sum + row.reward, 0) / rows.length,
      error: rows.find((row) => row.error !== null)?.error ?? null,
    }));
}

/**
 * The JUnit XML of `runs`. A gate below its threshold is a failure, a gate the run cannot measure
 * or a run that could not run an error. An example fails when its mean reward is below the run's
 * reward gate (when there is one), and is an error when a rollout of it failed.
 */
export function junitXml(runs: readonly GatedRun[]): string {
  const suites = runs.map((run) => {
    const cases: string[] = [];
    const classname = xmlEscape(`vf-eval.${run.name}`);
    if (run.error !== undefined) {
      cases.push(
        `    <testcase classname="${classname}" name="run"><error message="${xmlEscape(run.error)}"/></testcase>`,
      );
    }
    for (const result of run.gates) {
      const name = xmlEscape(`${result.gate.measure} >= ${result.gate.threshold}`);
      const body =
        result.value === null
          ? `<error message="${xmlEscape(result.line)}"/>`
          : result.passed
            ? ""
            : `<failure message="${xmlEscape(result.line)}"/>`;
      cases.push(`    <testcase classname="${classname}" name="gate ${name}">${body}</testcase>`);
    }
    const rewardGate = run.gates.find((result) => result.gate.measure === "reward")?.gate.threshold;
    for (const example of examples(run.records)) {
      const reward = Number(example.reward.toFixed(4));
      const body =
        example.error !== null
          ? `<error type="${xmlEscape(example.error.error)}" message="${xmlEscape(example.error.message)}"/>`
          : rewardGate !== undefined && example.reward < rewardGate
            ? `<failure message="${xmlEscape(`mean reward ${reward} < ${rewardGate}`)}"/>`
            : "";
      cases.push(
        `    <testcase classname="${classname}" name="example ${example.id} (reward ${reward})">${body}</testcase>`,
      );
    }
    const count = (tag: string) => cases.filter((c) => c.includes(`<${tag} `)).length;
    const time = run.metadata?.time ?? 0;
    return [
      `  <testsuite name="${xmlEscape(run.name)}" tests="${cases.length}" failures="${count("failure")}" errors="${count("error")}" time="${time}">`,
      ...cases,
      "  </testsuite>",
    ].join("\n");
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="vf eval">\n${suites.join("\n")}\n</testsuites>\n`;
}

/** A Markdown cell: pipes escaped, one line. */
function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\s*\n\s*/g, " ");
}

/** The Markdown summary of `runs`: one table of evaluations, one of gates. */
export function markdownSummary(runs: readonly GatedRun[]): string {
  const passed = runs.every((run) => run.metadata !== null && run.gates.every((g) => g.passed));
  const lines = [`## vf eval: ${passed ? "passed" : "failed"}`, ""];
  lines.push("| evaluation | model | rollouts | reward | errors |", "|---|---|---:|---:|---:|");
  for (const run of runs) {
    const m = run.metadata;
    lines.push(
      m === null
        ? `| ${cell(run.name)} | | | | could not run: ${cell(run.error ?? "")} |`
        : `| ${cell(run.name)} | ${cell(m.model)} | ${run.records.length} | ${m.avg_reward.toFixed(3)} | ${(m.avg_error * 100).toFixed(0)}% |`,
    );
  }
  const gated = runs.filter((run) => run.gates.length > 0);
  if (gated.length > 0) {
    lines.push("", "| evaluation | gate | value | result |", "|---|---|---:|---|");
    for (const run of gated) {
      for (const result of run.gates) {
        const value = result.value === null ? cell(result.line) : result.value.toFixed(3);
        const verdict = result.value === null ? "⚠️ not measured" : result.passed ? "✅ pass" : "❌ below";
        lines.push(
          `| ${cell(run.name)} | ${cell(result.gate.measure)} >= ${result.gate.threshold} | ${value} | ${verdict} |`,
        );
      }
    }
  }
  return `${lines.join("\n")}\n`;
}

/** Options of `writeGateReports`. */
export interface GateReportOptions {
  junit?: string | undefined;
  summaryMd?: string | undefined;
  /** GitHub Actions' step summary file ($GITHUB_STEP_SUMMARY), appended to. */
  stepSummary?: string | undefined;
}

/** Writes the reports asked for. */
export async function writeGateReports(runs: readonly GatedRun[], options: GateReportOptions): Promise<void> {
  const write = async (path: string, text: string) => {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, text, "utf8");
  };
  if (options.junit) await write(options.junit, junitXml(runs));
  const markdown = markdownSummary(runs);
  if (options.summaryMd) await write(options.summaryMd, markdown);
  if (options.stepSummary) await appendFile(options.stepSummary, `${markdown}\n`, "utf8");
}

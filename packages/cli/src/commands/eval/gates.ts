/**
 * Score gates for CI (`--fail-under`, `fail_under` in a config): a threshold on a run's average
 * reward, one metric's average, or pass@k, read from text and measured on a finished run. A run
 * that scores below a gate makes `vf eval` exit with EXIT_BELOW_GATE, apart from a run that could
 * not run (1) and bad usage (2). Read without zod, so declaring `vf eval`'s flags loads no schema
 * (the `Gate` schema is eval-spec.ts's, `fail_under`'s eval-config.ts's).
 *
 * The reports made of them, what `vf eval` leaves for a CI job: a JUnit XML file (`--junit`: a
 * test suite per evaluation, a test case per gate and one per example) and a Markdown summary
 * (`--summary-md`, and appended to `$GITHUB_STEP_SUMMARY` when GitHub Actions sets it). Both are
 * written from the same gated runs.
 *
 * @example parseGate("0.8")           // { measure: "reward", threshold: 0.8 }
 * @example parseGate("pass@4=0.5")    // { measure: "pass@4", threshold: 0.5 }
 * @example parseGate("exact_match=1") // { measure: "exact_match", threshold: 1 }
 */
import { appendFile, mkdir, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import type { RolloutRecord, RunMetadata } from "@vf-rl/core/results";
import { UsageError } from "../../cli-errors.ts";
import type { Gate } from "./eval-spec.ts";

/** `vf eval`'s exit status when every evaluation ran but one scored below a gate. */
export const EXIT_BELOW_GATE = 3;

/** A pass@k measure; its group is k. */
const PASS_AT = /^pass@(\d+)$/;

/** `reward`, `pass@K` or a metric name, `=`, then a number; a bare number gates the reward. */
export function parseGate(text: string): Gate {
  const trimmed = text.trim();
  const at = trimmed.lastIndexOf("=");
  const measure = at === -1 ? "reward" : trimmed.slice(0, at).trim();
  const number = at === -1 ? trimmed : trimmed.slice(at + 1).trim();
  const threshold = Number(number);
  if (measure === "" || number === "" || !Number.isFinite(threshold)) {
    throw new UsageError(
      `--fail-under "${text}" is not a gate: give a reward (0.8), a metric and its least average (exact_match=0.9) or pass@k (pass@4=0.5)`,
    );
  }
  const k = PASS_AT.exec(measure)?.[1];
  if (k !== undefined && Number(k) < 1) {
    throw new UsageError(`--fail-under "${text}": k of pass@k is at least 1, e.g. pass@1=0.5`);
  }
  return { measure, threshold };
}

/** commander's parser of the repeatable flag: each use adds a gate. */
export function gateFlag(value: string, previous: Gate[] | undefined): Gate[] {
  return [...(previous ?? []), parseGate(value)];
}

/** A gate measured on one run: its value (null when the run does not report it) and whether it passed. */
export interface GateResult {
  gate: Gate;
  value: number | null;
  passed: boolean;
  /** One line: "reward 0.73 < 0.8", or why it could not be measured. */
  line: string;
}

/** The run's value of the gate's measure, or why there is none. */
function measured(gate: Gate, metadata: RunMetadata): { value: number } | { missing: string } {
  if (gate.measure === "reward") return { value: metadata.avg_reward };
  const k = PASS_AT.exec(gate.measure)?.[1];
  if (k !== undefined) {
    const value = metadata.pass_at_k[k];
    if (value !== undefined) return { value };
    const reported = Object.keys(metadata.pass_at_k);
    return {
      missing: `pass@${k} is not reported for ${metadata.rollouts_per_example} rollouts per example: ${
        reported.length > 0
          ? `gate one of ${reported.map((r) => `pass@${r}`).join(", ")}`
          : "pass@k needs -r 2 or more"
      } (k = 1, 2, 4, ... up to -r)`,
    };
  }
  const value = metadata.avg_metrics[gate.measure];
  if (value !== undefined) return { value };
  const names = ["reward", ...Object.keys(metadata.avg_metrics)];
  return {
    missing: `"${gate.measure}" is not a metric of this run: gate one of ${names.join(", ")} or pass@k`,
  };
}

/** Measures every gate on one finished run. */
export function checkGates(gates: readonly Gate[], metadata: RunMetadata): GateResult[] {
  return gates.map((gate) => {
    const found = measured(gate, metadata);
    if ("missing" in found) return { gate, value: null, passed: false, line: found.missing };
    const passed = found.value >= gate.threshold;
    const shown = Number(found.value.toFixed(4));
    return {
      gate,
      value: found.value,
      passed,
      line: `${gate.measure} ${shown} ${passed ? ">=" : "<"} ${gate.threshold}`,
    };
  });
}

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

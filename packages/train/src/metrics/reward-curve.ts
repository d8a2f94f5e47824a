/**
 * The reward curve of a run, drawn from metrics.jsonl as a self-contained SVG (no script, no
 * external file) and an HTML page that shows it beside the evaluation table: the training reward
 * per step with its ±1 std band, the reward over every sampled rollout (filtered groups included),
 * for a run of several environments each one's training reward, and each environment's evaluations
 * with their 95% intervals (an environment's training line and evaluations share a colour).
 */
import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { UserError } from "@vf-rl/core";
import { type ChartSeries, escapeXml, lineChartSvg } from "../charts/line-chart.ts";
import type { RunLayout } from "../run-layout.ts";
import { type EvalRow, type MetricsRow, readMetrics, type TrainRow } from "./metrics-file.ts";

const ENV_COLOURS = ["#d62728", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22"];

/** Writes reward-curve.svg and reward-curve.html into the run folder; returns their paths. */
export async function writeRewardCurve(layout: RunLayout): Promise<{ svg: string; html: string }> {
  if (!existsSync(layout.metricsFile)) {
    throw new UserError(`${layout.dir} has no metrics.jsonl: point at a folder written by vf train`);
  }
  const { rows, skipped } = await readMetrics(layout.metricsFile);
  const svg = rewardCurveSvg(rows, layout.dir);
  await writeFile(layout.curveSvg, svg);
  await writeFile(layout.curveHtml, rewardCurveHtml(rows, svg, layout.dir, skipped));
  return { svg: layout.curveSvg, html: layout.curveHtml };
}

/** The curve as an SVG document. */
export function rewardCurveSvg(rows: readonly MetricsRow[], title: string): string {
  const train = rows.filter((r): r is TrainRow => r.kind === "train");
  const evals = rows.filter((r): r is EvalRow => r.kind === "eval");
  const maxStep = Math.max(1, ...train.map((r) => r.step), ...evals.map((r) => r.step));
  const trainEnvs = [...new Set(train.flatMap((r) => Object.keys(r.per_env ?? r.env_reward)))];
  // one training line per environment only when there are several
  const envLines =
    trainEnvs.length > 1 ? trainEnvs.map((env) => ({ env, points: envRewards(train, env) })) : [];
  const evalEnvs = [...new Set(evals.map((r) => r.env))];
  const envs = [...new Set([...trainEnvs, ...evalEnvs])];
  const colourOf = (env: string): string => ENV_COLOURS[envs.indexOf(env) % ENV_COLOURS.length]!;
  const values = [
    ...train.flatMap((r) => [r.reward_mean - r.reward_std, r.reward_mean + r.reward_std, r.reward_all_mean]),
    ...envLines.flatMap((line) => line.points.map((p) => p.value)),
    ...evals.flatMap((r) => [r.ci95_low, r.ci95_high]),
  ];
  let low = Math.min(0, ...values);
  let high = Math.max(1, ...values);
  if (high - low < 1e-9) high = low + 1;
  low = Math.floor(low * 10) / 10;
  high = Math.ceil(high * 10) / 10;
  const series: ChartSeries[] = [
    {
      type: "band",
      upper: train.map((r) => ({ step: r.step, value: r.reward_mean + r.reward_std })),
      lower: train.map((r) => ({ step: r.step, value: r.reward_mean - r.reward_std })),
      colour: "#1f77b4",
    },
    {
      type: "line",
      points: train.map((r) => ({ step: r.step, value: r.reward_all_mean })),
      colour: "#ff7f0e",
      width: 1,
      dash: "4 3",
      label: "all sampled rollouts",
    },
    {
      type: "line",
      points: train.map((r) => ({ step: r.step, value: r.reward_mean })),
      colour: "#1f77b4",
      width: 2,
      label: "train reward (±1 std)",
    },
  ];
  for (const { env, points } of envLines) {
    series.push({
      type: "line",
      points,
      colour: colourOf(env),
      width: 1.5,
      dash: "6 3",
      label: `train ${env}`,
    });
  }
  evalEnvs.forEach((env) => {
    const colour = colourOf(env);
    const ofEnv = evals.filter((r) => r.env === env).sort((a, b) => a.step - b.step);
    series.push(
      { type: "line", points: ofEnv.map((r) => ({ step: r.step, value: r.reward_mean })), colour, width: 1 },
      {
        type: "dots",
        points: ofEnv.map((r) => ({
          step: r.step,
          value: r.reward_mean,
          low: r.ci95_low,
          high: r.ci95_high,
          tooltip: `${env} @ step ${r.step}: ${r.reward_mean.toFixed(3)} [${r.ci95_low.toFixed(3)}, ${r.ci95_high.toFixed(3)}]`,
        })),
        colour,
        radius: 3.5,
        label: `eval ${env} (95% CI)`,
      },
    );
  });
  return lineChartSvg({
    title,
    yLabel: "reward",
    x: { min: 0, max: maxStep },
    y: { min: low, max: high },
    series,
    empty: "no steps yet",
  });
}

/**
 * An environment's training reward at each step: the mean over its rollouts trained on, or, in
 * runs written before per_env, over every rollout sampled from it (env_reward).
 */
function envRewards(train: readonly TrainRow[], env: string): { step: number; value: number }[] {
  return train.flatMap((r) => {
    const value = r.per_env ? r.per_env[env]?.reward : r.env_reward[env];
    return value === undefined ? [] : [{ step: r.step, value }];
  });
}

/** A step's training reward by environment, " (a 0.500, b 0.250)", when it drew from several. */
function byEnv(row: TrainRow): string {
  const envs = Object.entries(row.per_env ?? {});
  if (envs.length < 2) return "";
  return ` (${envs.map(([env, e]) => `${env} ${e.reward === undefined ? "-" : e.reward.toFixed(3)}`).join(", ")})`;
}

/** An HTML page holding the SVG, the run's last numbers and its evaluations. */
export function rewardCurveHtml(
  rows: readonly MetricsRow[],
  svg: string,
  title: string,
  skipped = 0,
): string {
  const train = rows.filter((r): r is TrainRow => r.kind === "train");
  const evals = rows.filter((r): r is EvalRow => r.kind === "eval");
  const last = train.at(-1);
  const seconds = train.reduce((s, r) => s + r.time_ms.step, 0) / 1000;
  const evalRows = evals
    .map(
      (r) =>
        `<tr><td>${r.step}</td><td>${escapeXml(r.env)}</td><td>${r.reward_mean.toFixed(3)}</td><td>[${r.ci95_low.toFixed(3)}, ${r.ci95_high.toFixed(3)}]</td><td>${r.rollouts}</td></tr>`,
    )
    .join("\n");
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>${escapeXml(title)}: reward curve</title>
<style>body{font-family:sans-serif;margin:24px}table{border-collapse:collapse}td,th{padding:4px 10px;border-bottom:1px solid #ddd;text-align:right}</style>
</head><body>
${svg}
<p>${train.length} steps${last ? `, last train reward ${last.reward_mean.toFixed(3)}${escapeXml(byEnv(last))}` : ""}, ${seconds.toFixed(0)} s of steps.${skipped > 0 ? ` ${skipped} unreadable lines of metrics.jsonl were skipped.` : ""}</p>
${evals.length > 0 ? `<table><tr><th>step</th><th>env</th><th>reward</th><th>95% CI</th><th>rollouts</th></tr>\n${evalRows}\n</table>` : "<p>No evaluations (add an [eval] table to the config).</p>"}
</body></html>
`;
}

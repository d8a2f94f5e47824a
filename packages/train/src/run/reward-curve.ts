/**
 * The reward curve of a run, drawn from metrics.jsonl as a self-contained SVG (no script, no
 * external file) and an HTML page that shows it beside the evaluation table: the training reward
 * per step with its ±1 std band, the reward over every sampled rollout (filtered groups included),
 * and each environment's evaluations with their 95% intervals.
 */
import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { UserError } from "@vf-rl/core";
import { readMetrics } from "./metrics-log.ts";
import type { EvalRow, MetricsRow, TrainRow } from "./metrics-row.ts";
import type { RunLayout } from "./run-layout.ts";

const W = 820;
const H = 420;
const PAD = { left: 60, right: 210, top: 40, bottom: 50 };
const EVAL_COLOURS = ["#d62728", "#2ca02c", "#9467bd", "#8c564b", "#e377c2"];

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
  const values = [
    ...train.flatMap((r) => [r.reward_mean - r.reward_std, r.reward_mean + r.reward_std, r.reward_all_mean]),
    ...evals.flatMap((r) => [r.ci95_low, r.ci95_high]),
  ];
  let low = Math.min(0, ...values);
  let high = Math.max(1, ...values);
  if (high - low < 1e-9) high = low + 1;
  low = Math.floor(low * 10) / 10;
  high = Math.ceil(high * 10) / 10;
  const x = (step: number): number => PAD.left + (step / maxStep) * (W - PAD.left - PAD.right);
  const y = (v: number): number => PAD.top + (1 - (v - low) / (high - low)) * (H - PAD.top - PAD.bottom);
  const path = (points: [number, number][]): string =>
    points.map(([px, py], i) => `${i === 0 ? "M" : "L"}${px.toFixed(1)},${py.toFixed(1)}`).join(" ");

  const parts: string[] = [];
  for (let i = 0; i <= 5; i++) {
    const v = low + ((high - low) * i) / 5;
    parts.push(
      `<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${y(v)}" y2="${y(v)}" stroke="#e5e5e5"/>`,
      `<text x="${PAD.left - 8}" y="${y(v) + 4}" text-anchor="end">${v.toFixed(2)}</text>`,
    );
  }
  for (const step of ticks(maxStep)) {
    parts.push(`<text x="${x(step)}" y="${H - PAD.bottom + 18}" text-anchor="middle">${step}</text>`);
  }
  parts.push(
    `<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${H - PAD.bottom}" y2="${H - PAD.bottom}" stroke="#888"/>`,
    `<text x="${(PAD.left + W - PAD.right) / 2}" y="${H - 10}" text-anchor="middle">step</text>`,
    `<text x="16" y="${(PAD.top + H - PAD.bottom) / 2}" transform="rotate(-90 16 ${(PAD.top + H - PAD.bottom) / 2})" text-anchor="middle">reward</text>`,
    `<text x="${PAD.left}" y="22" font-weight="bold">${escapeXml(title)}</text>`,
  );
  const legend: [string, string, string][] = [];
  if (train.length > 0) {
    const upper = train.map((r): [number, number] => [x(r.step), y(r.reward_mean + r.reward_std)]);
    const lower = train.map((r): [number, number] => [x(r.step), y(r.reward_mean - r.reward_std)]).reverse();
    parts.push(
      `<path d="${path([...upper, ...lower])} Z" fill="#1f77b4" fill-opacity="0.15" stroke="none"/>`,
      `<path d="${path(train.map((r) => [x(r.step), y(r.reward_all_mean)]))}" fill="none" stroke="#ff7f0e" stroke-dasharray="4 3"/>`,
      `<path d="${path(train.map((r) => [x(r.step), y(r.reward_mean)]))}" fill="none" stroke="#1f77b4" stroke-width="2"/>`,
    );
    legend.push(["#1f77b4", "", "train reward (±1 std)"], ["#ff7f0e", "4 3", "all sampled rollouts"]);
  }
  const envs = [...new Set(evals.map((r) => r.env))];
  envs.forEach((env, i) => {
    const colour = EVAL_COLOURS[i % EVAL_COLOURS.length]!;
    const ofEnv = evals.filter((r) => r.env === env).sort((a, b) => a.step - b.step);
    parts.push(
      `<path d="${path(ofEnv.map((r) => [x(r.step), y(r.reward_mean)]))}" fill="none" stroke="${colour}"/>`,
    );
    for (const r of ofEnv) {
      parts.push(
        `<line x1="${x(r.step)}" x2="${x(r.step)}" y1="${y(r.ci95_low)}" y2="${y(r.ci95_high)}" stroke="${colour}"/>`,
        `<circle cx="${x(r.step)}" cy="${y(r.reward_mean)}" r="3.5" fill="${colour}"><title>${escapeXml(env)} @ step ${r.step}: ${r.reward_mean.toFixed(3)} [${r.ci95_low.toFixed(3)}, ${r.ci95_high.toFixed(3)}]</title></circle>`,
      );
    }
    legend.push([colour, "", `eval ${env} (95% CI)`]);
  });
  legend.forEach(([colour, dash, label], i) => {
    const ly = PAD.top + 10 + i * 20;
    parts.push(
      `<line x1="${W - PAD.right + 12}" x2="${W - PAD.right + 36}" y1="${ly}" y2="${ly}" stroke="${colour}" stroke-width="2"${dash ? ` stroke-dasharray="${dash}"` : ""}/>`,
      `<text x="${W - PAD.right + 42}" y="${ly + 4}">${escapeXml(label)}</text>`,
    );
  });
  if (train.length === 0 && evals.length === 0) {
    parts.push(`<text x="${W / 2}" y="${H / 2}" text-anchor="middle">no steps yet</text>`);
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">
<rect width="100%" height="100%" fill="white"/>
${parts.join("\n")}
</svg>
`;
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
<p>${train.length} steps${last ? `, last train reward ${last.reward_mean.toFixed(3)}` : ""}, ${seconds.toFixed(0)} s of steps.${skipped > 0 ? ` ${skipped} unreadable lines of metrics.jsonl were skipped.` : ""}</p>
${evals.length > 0 ? `<table><tr><th>step</th><th>env</th><th>reward</th><th>95% CI</th><th>rollouts</th></tr>\n${evalRows}\n</table>` : "<p>No evaluations (add an [eval] table to the config).</p>"}
</body></html>
`;
}

/** About six round step numbers from 0 to max. */
function ticks(max: number): number[] {
  const raw = max / 6;
  const magnitude = 10 ** Math.floor(Math.log10(Math.max(raw, 1)));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) ?? magnitude * 10;
  const out: number[] = [];
  for (let s = 0; s <= max; s += step) out.push(s);
  return out;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

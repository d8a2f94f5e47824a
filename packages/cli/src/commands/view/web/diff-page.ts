/**
 * Two runs side by side and their diff example by example: which examples got better or worse (mean
 * reward over each example's rollouts), by how much, and the mean change; each example opens both
 * runs' rollouts of it side by side. The older run is "before".
 */
import { formatNumber, html, type SafeHtml } from "@vf-rl/hub/rollout-html";
import { pageFrame } from "./page-frame.ts";
import { diffRuns, direction, type ExampleChange } from "./run-diff.ts";
import type { OpenedRun } from "./run-store.ts";
import { runSummary } from "./run-summary.ts";

export function diffPage(options: { dir: string; before: OpenedRun; after: OpenedRun }): string {
  const { before, after } = options;
  const diff = diffRuns(before.run, after.run);
  const mean = diff.meanChange;
  const rows = diff.examples.map((example) => changeRow(example, before.key, after.key));
  const body = html`<div class="side">${runSummary(before, "Before")}${runSummary(after, "After")}</div>
<div class="card"><h2>Example by example</h2>
<p id="diff-summary"><span class="better">${diff.better} better</span> · <span class="worse">${diff.worse} worse</span> · ${diff.same} unchanged · mean change <strong class="${mean === null ? "" : klass(mean)}">${mean === null ? "—" : signed(mean)}</strong></p>
<table id="changes"><thead><tr><th>example</th><th class="num">before</th><th class="num">after</th><th class="num">change</th><th></th></tr></thead><tbody>${rows}</tbody></table></div>`;
  return pageFrame({ title: "Diff", dir: options.dir, body });
}

function changeRow(example: ExampleChange, beforeKey: string, afterKey: string): SafeHtml {
  const cell = (value: number | null) => (value === null ? "—" : formatNumber(value));
  const state = example.change === null ? "one-run" : klass(example.change);
  const href = `/compare?${new URLSearchParams({ before: beforeKey, after: afterKey, example: String(example.exampleId) })}`;
  return html`<tr class="${state}" data-example="${example.exampleId}"><td>#${example.exampleId}</td><td class="num">${cell(example.before)}</td><td class="num">${cell(example.after)}</td>
<td class="num change ${state}">${example.change === null ? "only in one run" : signed(example.change)}</td><td><a href="${href}">side by side</a></td></tr>`;
}

function klass(change: number): string {
  return ["worse", "same", "better"][direction(change) + 1]!;
}

/** +0.25, -0.5, 0: the sign says which way. */
function signed(change: number): string {
  const d = direction(change);
  return d === 0 ? "0" : `${d > 0 ? "+" : "−"}${formatNumber(Math.abs(change))}`;
}

/**
 * A run's page: its card, then its rollouts, narrowed by the filters (search, reward range, errors
 * only, example id: a GET form, so the result is a URL). Each row links to the rollout's page.
 */
import type { RolloutRecord } from "@vf-rl/core/results";
import { formatNumber, html } from "@vf-rl/hub/rollout-html";
import { pageFrame, rolloutHref } from "./page-frame.ts";
import { failure, filterParams, filterRollouts, type RolloutFilter } from "./rollout-filter.ts";
import type { OpenedRun } from "./run-store.ts";
import { runSummary } from "./run-summary.ts";

// A changed checkbox applies the filters at once; the number fields apply on Enter or Apply.
const SCRIPT = `document.querySelector('form.filters input[name=errors]').addEventListener('change',e=>e.target.form.submit());`;

export function runPage(options: { dir: string; opened: OpenedRun; filter: RolloutFilter }): string {
  const { opened, filter } = options;
  const records = opened.run.records;
  const shown = filterRollouts(opened.run, filter);
  const metricNames = Object.keys(opened.run.metadata.avg_metrics);
  const params = filterParams(filter);
  const rows = shown.map((i) => rolloutRow(rolloutHref(opened.key, i, params), records[i]!, metricNames));
  const value = (n: number | null) => (n === null ? "" : String(n));
  const body = html`${runSummary(opened, html`${opened.run.metadata.env_id} · <code>${opened.run.metadata.model}</code>`)}
<div class="card"><form class="filters" method="get" action="/run"><input type="hidden" name="run" value="${opened.key}">
<label>search <input type="search" name="q" value="${filter.query}" placeholder="text, tool call, error"></label>
<label>reward from <input type="number" step="any" name="min" value="${value(filter.minReward)}"></label>
<label>to <input type="number" step="any" name="max" value="${value(filter.maxReward)}"></label>
<label>example <input type="number" name="example" value="${value(filter.exampleId)}"></label>
<label><input type="checkbox" name="errors" value="1"${filter.errorsOnly ? html` checked` : ""}> errors only</label>
<button type="submit">Apply</button> <a class="small" href="/run?run=${encodeURIComponent(opened.key)}">clear</a></form>
<p class="small muted" id="shown">${shown.length} of ${records.length} rollouts</p>
<table id="rollouts"><thead><tr><th>example</th><th>rollout</th><th class="num">reward</th><th>stop</th><th>error</th>${metricNames.map((name) => html`<th class="num">${name}</th>`)}</tr></thead>
<tbody>${rows}</tbody></table></div>`;
  return pageFrame({
    title: `${opened.run.metadata.env_id} · ${opened.run.metadata.model}`,
    dir: options.dir,
    body,
    script: SCRIPT,
  });
}

function rolloutRow(href: string, record: RolloutRecord, metricNames: string[]) {
  const failed = failure(record);
  return html`<tr data-example="${record.example_id}" data-reward="${record.reward}"><td><a href="${href}">#${record.example_id}</a></td><td>${record.rollout_index}</td>
<td class="num reward">${formatNumber(record.reward)}</td><td class="small">${record.stop_condition ?? "—"}</td><td>${failed ? html`<span class="badge">${failed}</span>` : ""}</td>
${metricNames.map((name) => html`<td class="num">${name in record.metrics ? formatNumber(record.metrics[name]!) : "—"}</td>`)}</tr>`;
}

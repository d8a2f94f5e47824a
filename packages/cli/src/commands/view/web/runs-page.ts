/**
 * The runs list: each run's environment, model, harness, date, mean reward, rollouts and status,
 * linking to its page; tick two and "Compare" opens their diff (the first ticked, older, as before).
 */
import type { RunEntry } from "@vf-rl/core/results";
import { formatNumber, html } from "@vf-rl/hub/rollout-html";
import { matchingRuns } from "../viewer-model.ts";
import { pageFrame, runHref } from "./page-frame.ts";

// Enables Compare with exactly two runs ticked.
const SCRIPT = `const boxes=[...document.querySelectorAll('input[name=run]')];const go=document.getElementById('compare');
const sync=()=>{go.disabled=boxes.filter(b=>b.checked).length!==2};boxes.forEach(b=>b.addEventListener('change',sync));sync();`;

export function runsPage(options: {
  dir: string;
  runs: RunEntry[];
  key: (entry: RunEntry) => string;
  /** The search typed (the terminal viewer's: environment, harness, model, run id, status). */
  query: string;
}): string {
  const shown = matchingRuns(options.runs, options.query);
  const rows = shown.map((entry) => {
    const key = options.key(entry);
    if (entry.type === "unreadable") {
      return html`<tr class="unreadable"><td></td><td colspan="7"><code>${key}</code> <span class="badge">unreadable</span> <span class="small">${entry.message}</span></td></tr>`;
    }
    return html`<tr data-run="${key}"><td><input type="checkbox" name="run" value="${key}" aria-label="compare ${key}"></td>
<td><a href="${runHref(key)}">${entry.envId}</a></td><td><code>${entry.model}</code></td><td>${entry.harness ?? html`<span class="muted">—</span>`}</td>
<td class="nowrap">${entry.date.slice(0, 19).replace("T", " ")}</td><td class="num reward">${formatNumber(entry.avgReward)}</td>
<td class="num rollouts">${entry.rows}</td><td>${entry.status}</td><td><code class="small muted">${entry.runId}</code></td></tr>`;
  });
  const body = html`<div class="card"><h1>Runs</h1><form class="filters" method="get" action="/"><label>search <input type="search" name="q" value="${options.query}" placeholder="environment, model, harness, run id"></label><button type="submit">Search</button></form>
<p class="muted small" id="runs-shown">${shown.length === options.runs.length ? `${shown.length}` : `${shown.length} of ${options.runs.length}`} runs under ${options.dir}. Tick two runs to compare them example by example.</p>
<form action="/diff" method="get"><table id="runs"><thead><tr><th></th><th>environment</th><th>model</th><th>harness</th><th>date</th><th class="num">reward</th><th class="num">rollouts</th><th>status</th><th>run</th></tr></thead>
<tbody>${rows}</tbody></table><p><button id="compare" type="submit">Compare two runs</button></p></form></div>`;
  return pageFrame({ title: "Runs", dir: options.dir, body, script: SCRIPT });
}

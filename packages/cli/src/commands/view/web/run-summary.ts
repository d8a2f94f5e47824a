/**
 * A run's card: what was run (environment and arguments, model, an agent run's harness and runtime,
 * sampling) and how it scored (mean reward, each metric's mean, errors, status). The run page shows
 * one; the diff page two, side by side.
 */

import { formatNumber, html, type SafeHtml } from "@vf-rl/hub/rollout-html";
import { runHref } from "./page-frame.ts";
import type { OpenedRun } from "./run-store.ts";

export function runSummary(opened: OpenedRun, heading: SafeHtml | string): SafeHtml {
  const { metadata, records } = opened.run;
  const tags = (values: Record<string, unknown>) => {
    const entries = Object.entries(values);
    return entries.length
      ? entries.map(([k, v]) => html`<span class="tag">${k}=${JSON.stringify(v)}</span>`)
      : html`<span class="muted">defaults</span>`;
  };
  const errors = Object.entries(metadata.error_counts);
  return html`<div class="card run-summary"><h2>${heading}</h2><table><tbody>
<tr><th>environment</th><td><a href="${runHref(opened.key)}">${metadata.env_id}</a> ${tags(metadata.env_args)}</td></tr>
<tr><th>model</th><td><code>${metadata.model}</code></td></tr>
${metadata.harness ? html`<tr><th>harness</th><td><code>${metadata.harness}</code>${metadata.runtime ? ` in the ${metadata.runtime} runtime` : ""}</td></tr>` : ""}
<tr><th>sampling</th><td>${tags(metadata.sampling_args)}</td></tr>
<tr><th>mean reward</th><td class="mean-reward"><strong>${formatNumber(metadata.avg_reward)}</strong></td></tr>
${Object.entries(metadata.avg_metrics).map(([name, value]) => html`<tr><th>${name}</th><td>${formatNumber(value)}</td></tr>`)}
<tr><th>rollouts</th><td>${records.length} (${metadata.num_examples} examples × ${metadata.rollouts_per_example}) · ${metadata.status}</td></tr>
${errors.length ? html`<tr><th>errors</th><td>${errors.map(([type, n]) => html`<span class="badge">${type} × ${n}</span> `)}</td></tr>` : ""}
<tr><th>run</th><td><code class="small">${opened.listing.dir}</code> · ${opened.listing.date.slice(0, 19).replace("T", " ")}</td></tr>
</tbody></table></div>`;
}

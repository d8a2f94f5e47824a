/**
 * One rollout's page: the shared renderer (@vf-rl/hub/rollout-html, also the Hub's report page) with
 * links back to its run and to the rollouts before and after it in the run page's list (by example
 * and rollout, within the filter it was opened from).
 */
import { html, rolloutHtml, type TokenText } from "@vf-rl/hub/rollout-html";
import { rolloutOrder } from "../rollout-list.ts";
import { pageFrame, rolloutHref, runHref } from "./page-frame.ts";
import { filterParams, filterRollouts, type RolloutFilter } from "./rollout-filter.ts";
import type { OpenedRun } from "./run-store.ts";

export function rolloutPage(options: {
  dir: string;
  opened: OpenedRun;
  index: number;
  tokenText: TokenText | undefined;
  filter: RolloutFilter;
}): string {
  const { opened, index } = options;
  const record = opened.run.records[index]!;
  const filtered = filterRollouts(opened.run, options.filter);
  // A rollout the filter leaves out (an address edited by hand) steps through the whole run.
  const order = filtered.includes(index) ? filtered : rolloutOrder(opened.run);
  const params = filterParams(options.filter);
  const at = order.indexOf(index);
  const previous = order[at - 1];
  const next = order[at + 1];
  const { env_id, model } = opened.run.metadata;
  const body = html`<nav class="steps"><a href="${runHref(opened.key, params)}">← ${env_id} · ${model}</a>
${previous === undefined ? "" : html`<a id="previous" href="${rolloutHref(opened.key, previous, params)}">‹ previous</a>`}
${next === undefined ? "" : html`<a id="next" href="${rolloutHref(opened.key, next, params)}">next ›</a>`}
<a href="${runHref(opened.key, { example: String(record.example_id) })}">all rollouts of example ${record.example_id}</a></nav>
<div class="card"><h1>Example ${record.example_id} · rollout ${record.rollout_index}</h1>
${rolloutHtml(record, options.tokenText ? { tokenText: options.tokenText } : {})}</div>`;
  return pageFrame({
    title: `#${record.example_id}.${record.rollout_index} · ${env_id}`,
    dir: options.dir,
    body,
  });
}

/**
 * One example in two runs, side by side: every rollout of it in the run before (left) and after
 * (right), each through the shared renderer, so the conversations line up for reading.
 */
import { html, rolloutHtml, type SafeHtml, type TokenText } from "@vf-rl/hub/rollout-html";
import { pageFrame, rolloutHref } from "./page-frame.ts";
import type { OpenedRun } from "./run-store.ts";

export interface CompareSide {
  opened: OpenedRun;
  tokenText: TokenText | undefined;
}

export function comparePage(options: {
  dir: string;
  exampleId: number;
  before: CompareSide;
  after: CompareSide;
}): string {
  const { exampleId } = options;
  const column = (side: CompareSide, heading: string): SafeHtml => {
    const { records, metadata } = side.opened.run;
    const indices = records.flatMap((record, i) => (record.example_id === exampleId ? [i] : []));
    return html`<div class="card"><h2>${heading}: ${metadata.env_id} · <code>${metadata.model}</code></h2>
${indices.length === 0 ? html`<p class="muted">This run has no rollout of example ${exampleId}.</p>` : ""}
${indices.map(
  (i) =>
    html`<h3><a href="${rolloutHref(side.opened.key, i)}">rollout ${records[i]!.rollout_index}</a></h3>${rolloutHtml(records[i]!, side.tokenText ? { tokenText: side.tokenText } : {})}`,
)}</div>`;
  };
  const back = `/diff?${new URLSearchParams([
    ["run", options.before.opened.key],
    ["run", options.after.opened.key],
  ])}`;
  const body = html`<nav class="steps"><a href="${back}">← the diff</a></nav><h1>Example ${exampleId}</h1>
<div class="side">${column(options.before, "Before")}${column(options.after, "After")}</div>`;
  return pageFrame({ title: `Example ${exampleId} side by side`, dir: options.dir, body });
}

/**
 * One rollout record as HTML, the body both `vf view --web` and the Hub's report page show: the
 * reward and each metric, what went wrong (the rollout's error, reward functions that raised, an
 * agent trace's errors), the conversation (an agent's trace with its branches, else prompt and
 * completion), the reference answer, and the sampled tokens' logprobs where the row saved them.
 * No scripts: it reads the same with JavaScript off.
 */
import { type RolloutRecord, readTrace } from "@vf-rl/core/results";
import { html, type SafeHtml } from "../html.ts";
import { hasLogprobs, logprobHeatmap, type TokenText } from "./logprob-heatmap.ts";
import { conversationHtml } from "./message-html.ts";
import { toolsHtml } from "./tools-html.ts";
import { traceHtml } from "./trace-html.ts";

/** How a rollout is shown. */
export interface RolloutHtmlOptions {
  /** Token text for the heat map (the model's tokenizer); token ids without it. */
  tokenText?: TokenText;
}

export function rolloutHtml(record: RolloutRecord, options: RolloutHtmlOptions = {}): SafeHtml {
  const read = readTrace(record);
  const conversation =
    read.type === "trace"
      ? traceHtml(read.trace)
      : html`<section class="conversation">${toolsHtml(record.tool_defs ?? [])}<h3>Prompt</h3>${conversationHtml(record.prompt)}
<h3>Completion</h3>${conversationHtml(record.completion, { before: record.prompt })}</section>`;
  return html`<div class="rollout">${scoresHtml(record)}${errorsHtml(record, read)}
${record.answer ? html`<p class="answer"><strong>Answer:</strong> <code>${record.answer}</code></p>` : ""}
${conversation}
${hasLogprobs(record.trajectory) ? html`<section class="logprobs"><h3>Token logprobs</h3>${logprobHeatmap(record.trajectory, options.tokenText)}</section>` : ""}</div>`;
}

function scoresHtml(record: RolloutRecord): SafeHtml {
  const rows = Object.entries(record.metrics).map(
    ([name, value]) => html`<tr><th>${name}</th><td>${formatNumber(value)}</td></tr>`,
  );
  const facts = [
    `stop ${record.stop_condition ?? "—"}`,
    record.is_truncated ? "truncated" : "",
    record.timing ? `${(record.timing.total_ms / 1000).toFixed(2)} s` : "",
    record.token_usage
      ? `${record.token_usage.input_tokens} → ${record.token_usage.output_tokens} tokens`
      : "",
  ].filter(Boolean);
  return html`<section class="scores"><p><span class="reward">reward <strong>${formatNumber(record.reward)}</strong></span> <span class="small muted">${facts.join(" · ")}</span></p>
${rows.length ? html`<table class="metrics"><tbody>${rows}</tbody></table>` : ""}</section>`;
}

function errorsHtml(record: RolloutRecord, read: ReturnType<typeof readTrace>): SafeHtml | string {
  const items: SafeHtml[] = [];
  if (record.error) {
    const chain = record.error.error_chain_str;
    items.push(
      html`<li><strong>${record.error.error}</strong>: ${record.error.message}${chain && chain !== record.error.message ? html`<pre>${chain}</pre>` : ""}</li>`,
    );
  }
  for (const failed of record.scoring_errors) {
    items.push(
      html`<li>reward function <code>${failed.function}</code> raised (scored 0): <strong>${failed.error.error}</strong>: ${failed.error.message}</li>`,
    );
  }
  if (read.type === "trace") {
    for (const error of read.trace.errors)
      items.push(html`<li><strong>${error.type}</strong>: ${error.message}</li>`);
  }
  if (read.type === "unreadable")
    items.push(html`<li><strong>trace unreadable</strong>: ${read.message}</li>`);
  return items.length ? html`<section class="errors"><h3>Errors</h3><ul>${items}</ul></section>` : "";
}

/** Up to four decimals, without trailing zeros: 1, 0.5, 0.7429. */
export function formatNumber(value: number): string {
  return Number.isInteger(value) ? String(value) : String(Number(value.toFixed(4)));
}

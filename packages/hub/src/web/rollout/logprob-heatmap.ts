/**
 * Per-token logprobs of a rollout's model turns as a heat map: one cell per sampled token, shaded by
 * how unlikely the sampler found it (white near probability 1, red near 0), its logprob in the cell's
 * tooltip and `data-logprob`. Token text comes from the caller (a tokenizer the page knows); without
 * one each cell shows the token id.
 */
import type { TrajectoryStep } from "@vf-rl/core/results";
import { html, type SafeHtml } from "../html.ts";

/** The text of one token id, for a model whose tokenizer the page knows. */
export type TokenText = (id: number) => string;

/** Whether any turn saved its tokens and logprobs. */
export function hasLogprobs(trajectory: readonly TrajectoryStep[]): boolean {
  return trajectory.some((step) => (step.tokens?.completion_logprobs.length ?? 0) > 0);
}

/** One block per model turn that saved tokens; nothing when none did. */
export function logprobHeatmap(trajectory: readonly TrajectoryStep[], tokenText?: TokenText): SafeHtml {
  return html`${trajectory.map((step, turn) => {
    const tokens = step.tokens;
    if (!tokens || tokens.completion_ids.length === 0) return "";
    const logprobs = tokens.completion_logprobs;
    const mean = logprobs.reduce((sum, lp) => sum + lp, 0) / Math.max(1, logprobs.length);
    const cells = tokens.completion_ids.map((id, i) => cell(id, logprobs[i], tokenText));
    return html`<div class="heatmap" data-turn="${turn}"><div class="small muted">turn ${turn + 1} · ${tokens.completion_ids.length} tokens · mean logprob ${mean.toFixed(3)}${tokenText ? "" : " · token ids (no tokenizer for this model)"} · ${LEGEND}</div>
<div class="tokens${tokenText ? "" : " ids"}">${cells}</div></div>`;
  })}`;
}

/** How to read the shades: p is the probability the sampler gave the token. */
const LEGEND = html`p 1 <span class="swatch" style="background:${shade(1)}"></span><span class="swatch" style="background:${shade(0.5)}"></span><span class="swatch" style="background:${shade(0)}"></span> 0`;

/** Lightness 97% at p = 1 down to 55% at p = 0: the unlikely tokens stand out. */
function shade(p: number): string {
  return `hsl(0,85%,${(55 + 42 * p).toFixed(1)}%)`;
}

function cell(id: number, logprob: number | undefined, tokenText: TokenText | undefined): SafeHtml {
  const text = tokenText ? visible(tokenText(id)) : String(id);
  if (logprob === undefined) return html`<span class="tok" title="id ${id} · no logprob">${text}</span>`;
  const p = Math.exp(logprob);
  return html`<span class="tok" style="background:${shade(p)}" data-logprob="${logprob}" title="id ${id} · logprob ${logprob.toFixed(4)} · p ${p.toFixed(3)}">${text}</span>`;
}

/** Whitespace made visible, so a newline or a space is a cell one can point at. */
function visible(text: string): string {
  if (text === "") return "∅";
  return text.replace(/\n/g, "↵\n").replace(/\t/g, "→").replace(/^ $/, "·");
}

/**
 * @vf-rl/hub/rollout-html: a saved rollout rendered as HTML, shared by the Hub's report page and
 * `vf view --web`. It imports neither the Hub's server nor its database, so the CLI loads it in a
 * lean install. `html` escapes every value interpolated into a page built around it.
 *
 * @example
 * const page = html`<style>${new SafeHtml(ROLLOUT_STYLE)}</style>${rolloutHtml(record)}`;
 */

export { escapeHtml, html, SafeHtml } from "../html.ts";
export type { TokenText } from "./logprob-heatmap.ts";
export { conversationHtml } from "./message-html.ts";
export { formatNumber, type RolloutHtmlOptions, rolloutHtml } from "./rollout-html.ts";
export { ROLLOUT_STYLE } from "./rollout-style.ts";

/** Arguments of a run (environment or sampling arguments) as the pages show them. */
import { html, type SafeHtml } from "./html.ts";

/** `args` as tags (`story=false`, `difficulty="hard"`), or `none` in muted text when it is empty. */
export function argTags(args: Record<string, unknown>, none = "defaults"): SafeHtml {
  const entries = Object.entries(args);
  if (entries.length === 0) return html`<span class="muted">${none}</span>`;
  return html`${entries.map(([key, value]) => html`<span class="tag">${key}=${JSON.stringify(value)}</span>`)}`;
}

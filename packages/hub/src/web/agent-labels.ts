/**
 * How the pages label agents: a taskset (a package whose tasks an agent program works on) badged
 * beside its id, the command that evaluates one (a taskset's names a harness), and the harness an
 * agent run's model worked through.
 */
import type { EnvKind } from "../api/schemas/env-schemas.ts";
import { html, type SafeHtml } from "./html.ts";

/** A "taskset" badge for a taskset; nothing for an environment (the usual kind). */
export function kindBadge(kind: EnvKind): SafeHtml | string {
  return kind === "taskset"
    ? html` <span class="badge taskset" title="a taskset: an agent program (a harness) works on its tasks">taskset</span>`
    : "";
}

/** The command that evaluates `id` (with `--push`, uploading a report): a taskset's through the bash harness. */
export function evalCommand(id: string, kind: EnvKind, push = false): string {
  return `vf eval ${id}${kind === "taskset" ? " --harness bash" : ""}${push ? " --push" : ""}`;
}

/** A harness cell: its id, or a dash for a run the environment made itself. */
export function harnessCell(harness: string | null): SafeHtml {
  return harness === null ? html`<span class="muted">—</span>` : html`<code>${harness}</code>`;
}

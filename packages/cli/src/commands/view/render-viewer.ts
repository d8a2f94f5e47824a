/**
 * Draws the viewer's state as the lines of one terminal frame: a title, the list or conversation
 * window around the cursor, and a footer with the keys. ANSI styling only when `color` is set.
 */
import type { RunEntry } from "@vf-rl/core/results";
import { conversationLines, fmt, type StyledLine } from "./conversation-lines.ts";
import { top, type ViewerState, visibleRollouts, visibleRuns } from "./viewer-model.ts";

export interface FrameSize {
  width: number;
  height: number;
  color: boolean;
}

/** Rows available to a list or the conversation (the frame minus title and footer). */
export function bodyHeight(size: FrameSize): number {
  return Math.max(3, size.height - 4);
}

export function renderViewer(state: ViewerState, size: FrameSize): string[] {
  const screen = top(state);
  const body = bodyHeight(size);
  const style = styler(size.color);
  let title: string;
  let rows: string[];
  let keys: string;
  if (screen.kind === "runs") {
    const runs = visibleRuns(state, screen.query);
    title = `vf view · ${runs.length} run${runs.length === 1 ? "" : "s"}${screen.query ? ` matching "${screen.query}"` : ""}`;
    rows = windowed(runs.map(runRow), screen.cursor, body, style.selected);
    if (runs.length === 0)
      rows = [style.dim(state.runs.length === 0 ? "no saved runs here" : "nothing matches")];
    keys = "↑↓ move · enter open · / search · q quit";
  } else if (screen.kind === "rollouts") {
    const { metadata, records } = screen.run;
    const shown = visibleRollouts(screen.run, screen.query);
    title = `${metadata.env_id} · ${metadata.model} · ${records.length} rollouts · avg reward ${fmt(metadata.avg_reward)}${screen.query ? ` · matching "${screen.query}"` : ""}`;
    const lines = shown.map((i) => {
      const r = records[i]!;
      const metrics = Object.entries(r.metrics)
        .slice(0, 4)
        .map(([k, v]) => `${k}=${fmt(v)}`)
        .join(" ");
      const error = r.error ? ` ✗ ${r.error.error}` : "";
      return `#${r.example_id}.${r.rollout_index}  reward ${fmt(r.reward).padEnd(6)} ${(r.stop_condition ?? "-").padEnd(24)} ${metrics}${error}`;
    });
    rows = windowed(lines, screen.cursor, body, style.selected);
    if (shown.length === 0) rows = [style.dim("nothing matches")];
    keys = "↑↓ move · enter open · / search · b back · q quit";
  } else {
    const record = screen.run.records[screen.index]!;
    const lines = conversationLines(record, size.width);
    const scroll = Math.min(screen.scroll, Math.max(0, lines.length - body));
    title = `${screen.run.metadata.env_id} · rollout ${screen.index + 1} of ${screen.run.records.length}`;
    rows = lines.slice(scroll, scroll + body).map((line) => style.line(line));
    keys = `↑↓ scroll · space page · b back · q quit · ${Math.min(lines.length, scroll + body)}/${lines.length}`;
  }
  const footer = state.typing !== null ? `/${state.typing}▏ (enter to search, esc to cancel)` : keys;
  const notice = state.notice ? style.error(clip(state.notice, size.width)) : "";
  return [
    style.title(clip(title, size.width)),
    "",
    ...pad(
      rows.map((r) => clip(r, size.width, size.color)),
      body,
    ),
    notice,
    style.dim(clip(footer, size.width)),
  ];
}

function runRow(entry: RunEntry): string {
  if (entry.type === "unreadable") return `✗ ${entry.runId}  unreadable: ${entry.message}`;
  const date = entry.date.slice(0, 16).replace("T", " ");
  const status = entry.status === "complete" ? "" : ` (${entry.status})`;
  return `${entry.envId.padEnd(20)} ${entry.model.padEnd(24)} ${date}  reward ${fmt(entry.avgReward).padEnd(6)} ${String(entry.rows).padStart(5)} rollouts${status}`;
}

/** The rows around the cursor that fit, the cursor's row highlighted. */
function windowed(
  lines: string[],
  cursor: number,
  height: number,
  highlight: (s: string) => string,
): string[] {
  const start = Math.max(0, Math.min(cursor - Math.floor(height / 2), lines.length - height));
  return lines
    .slice(start, start + height)
    .map((line, i) => (start + i === cursor ? highlight(`› ${line}`) : `  ${line}`));
}

function pad(rows: string[], height: number): string[] {
  return rows.length >= height ? rows : [...rows, ...Array(height - rows.length).fill("")];
}

function clip(text: string, width: number, hasAnsi = false): string {
  if (hasAnsi) return text;
  return text.length > width ? `${text.slice(0, width - 1)}…` : text;
}

function styler(color: boolean) {
  const wrap = (code: string) => (s: string) => (color ? `\x1b[${code}m${s}\x1b[0m` : s);
  const styles: Record<StyledLine["style"], (s: string) => string> = {
    heading: wrap("1"),
    role: wrap("36"),
    body: (s) => s,
    tool: wrap("33"),
    dim: wrap("2"),
    error: wrap("31"),
  };
  return {
    title: wrap("1"),
    dim: wrap("2"),
    error: wrap("31"),
    selected: wrap("7"),
    line: (line: StyledLine) => styles[line.style](line.text),
  };
}

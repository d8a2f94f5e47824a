/**
 * Draws the viewer's state as the lines of one terminal frame: a title, the list or conversation
 * window around the cursor, and a footer with the keys. ANSI styling only when `color` is set.
 * Every line fits the frame's width in columns (cut with "…"), so none wraps and the frame never
 * scrolls the title or the selected row off the screen.
 */
import type { RolloutRecord, RunEntry } from "@vf-rl/core/results";
import { recordBranches } from "@vf-rl/core/results";
import { fitWidth, padToWidth, printable, visibleWidth } from "../../terminal/text-width.ts";
import { conversationLines, fmt, type StyledLine } from "./conversation-lines.ts";
import type { RolloutLayout } from "./rollout-keys.ts";
import { rolloutOrder, visibleRollouts } from "./rollout-list.ts";
import { rolloutRow } from "./rollout-row.ts";
import { top, type ViewerState, visibleRuns } from "./viewer-model.ts";

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
    rows = windowed(
      runs.map((run) => runRow(run, size.width - CURSOR.length)),
      screen.cursor,
      body,
      size.width,
      style.selected,
    );
    if (runs.length === 0)
      rows = [style.dim(state.runs.length === 0 ? "no saved runs here" : "nothing matches")];
    keys = "↑↓ move · enter open · / search · q quit";
  } else if (screen.kind === "rollouts") {
    const { metadata, records } = screen.run;
    const shown = visibleRollouts(screen.run, screen.query);
    const harness = metadata.harness ? ` · ${metadata.harness} harness` : "";
    title = `${metadata.env_id} · ${metadata.model}${harness} · ${records.length} rollouts · avg reward ${fmt(metadata.avg_reward)}${screen.query ? ` · matching "${screen.query}"` : ""}`;
    const lines = shown.map((i) => rolloutRow(records[i]!));
    rows = windowed(lines, screen.cursor, body, size.width, style.selected);
    if (shown.length === 0) rows = [style.dim("nothing matches")];
    keys = "↑↓ move · enter open · / search · b back · q quit";
  } else {
    const record = screen.run.records[screen.index]!;
    const lines = linesOf(record, size.width, screen.branch);
    const scroll = Math.min(screen.scroll, Math.max(0, lines.length - body));
    const position = rolloutOrder(screen.run).indexOf(screen.index) + 1;
    const found = recordBranches(record);
    const branches = found?.branches.length ?? 0;
    const branch =
      branches > 1
        ? ` · branch ${screen.branch + 1} of ${branches}${screen.branch === found?.main ? " (main)" : ""}`
        : "";
    title = `${screen.run.metadata.env_id} · rollout ${position} of ${screen.run.records.length}${branch}`;
    rows = lines
      .slice(scroll, scroll + body)
      .map((line) => style.line({ ...line, text: fitWidth(line.text, size.width) }));
    const hints = ["↑↓ scroll", "space page", "tab section", "n/p rollout"];
    if (branches > 1) hints.push("[ ] branch");
    hints.push("b back", "q quit");
    keys = keyLine(hints, `${Math.min(lines.length, scroll + body)}/${lines.length}`, size.width);
  }
  const footer = state.typing !== null ? `/${state.typing}▏ (enter to search, esc to cancel)` : keys;
  const line = (text: string) => fitWidth(oneLine(text), size.width);
  const frame = [
    style.title(line(title)),
    "",
    ...pad(rows, body),
    state.notice ? style.error(line(state.notice)) : "",
    style.dim(line(footer)),
  ];
  // Whatever a line holds, and styled or not, it stays within the width.
  return frame.map((text) => fitWidth(text, size.width));
}

// Scrolling redraws the same rollout on every key; an agent's trace runs to thousands of lines.
const made = new WeakMap<RolloutRecord, Map<string, StyledLine[]>>();

/** A rollout's conversation lines, made once per width and branch. */
function linesOf(record: RolloutRecord, width: number, branch: number): StyledLine[] {
  const byLayout = made.get(record) ?? new Map<string, StyledLine[]>();
  made.set(record, byLayout);
  const key = `${width}:${branch}`;
  const lines = byLayout.get(key) ?? conversationLines(record, width, branch);
  byLayout.set(key, lines);
  return lines;
}

/**
 * The rollout shown, as drawn at `size`: where its sections start (headings, and each reply under
 * the call that wrote it) and how far it scrolls; undefined when no rollout is shown.
 */
export function rolloutLayout(state: ViewerState, size: FrameSize): RolloutLayout | undefined {
  const screen = top(state);
  if (screen.kind !== "rollout") return undefined;
  const lines = linesOf(screen.run.records[screen.index]!, size.width, screen.branch);
  const sections = lines.flatMap((line, i) => (startsSection(line) ? [i] : []));
  return { sections, lastScroll: Math.max(0, lines.length - bodyHeight(size)) };
}

function startsSection(line: StyledLine): boolean {
  if (line.style === "heading") return true;
  // A reply under its call ("assistant · call 3 · ..."), or a failed call ("call 4 · failed ...").
  return (line.style === "role" && / · call \d+ · /.test(line.text)) || /^call \d+ · /.test(line.text);
}

/** Key hints as many as fit the width before `tail` (the position), which always shows. */
function keyLine(hints: string[], tail: string, width: number): string {
  let line = tail;
  for (let n = hints.length; n >= 0; n--) {
    line = [...hints.slice(0, n), tail].join(" · ");
    if (visibleWidth(line) <= width) break;
  }
  return line;
}

/** Marks the selected row of a list; other rows are indented as far. */
const CURSOR = "› ";

/**
 * One run as a row of `width` columns: the environment (and an agent run's harness) and model
 * share what the date, reward, rollouts and status leave, so those always show.
 */
function runRow(entry: RunEntry, width: number): string {
  if (entry.type === "unreadable") return oneLine(`✗ ${entry.runId}  unreadable: ${entry.message}`);
  const date = entry.date.slice(0, 16).replace("T", " ");
  const status = entry.status === "complete" ? "" : ` (${entry.status})`;
  const rest = `${date}  reward ${fmt(entry.avgReward).padEnd(6)} ${String(entry.rows).padStart(5)} rollouts${status}`;
  // An agent run names its harness beside the taskset: runs of one taskset differ by it.
  const env = entry.harness ? `${entry.envId} · ${entry.harness}` : entry.envId;
  const names = Math.max(10, Math.min(entry.harness ? 55 : 45, width - rest.length - 2));
  const share = entry.harness ? 0.6 : 0.45;
  const envWidth = Math.min(entry.harness ? 30 : 20, Math.max(4, Math.floor(names * share)));
  const modelWidth = names - envWidth - 1;
  return `${padToWidth(oneLine(env), envWidth)} ${padToWidth(oneLine(entry.model), modelWidth)} ${rest}`;
}

/** The rows around the cursor that fit, each cut to `width`, the cursor's row highlighted. */
function windowed(
  lines: string[],
  cursor: number,
  height: number,
  width: number,
  highlight: (s: string) => string,
): string[] {
  const start = Math.max(0, Math.min(cursor - Math.floor(height / 2), lines.length - height));
  return lines.slice(start, start + height).map((line, i) => {
    const row = fitWidth(`${start + i === cursor ? CURSOR : "  "}${oneLine(line)}`, width);
    return start + i === cursor ? highlight(row) : row;
  });
}

function pad(rows: string[], height: number): string[] {
  return rows.length >= height ? rows : [...rows, ...Array(height - rows.length).fill("")];
}

/** Text from a file (an id, a model name, an error) as one printable line. */
function oneLine(text: string): string {
  return printable(text).replace(/\n/g, " ");
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

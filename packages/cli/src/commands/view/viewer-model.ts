/**
 * The state of `vf view` and how keys change it: a stack of screens (runs → rollouts → one
 * rollout), a cursor and scroll per screen, a search that filters the current list, and on an
 * agent's rollout the branch of its trace shown. Pure except for loading a run when it is opened;
 * the terminal shell and the tests drive it the same way.
 */
import { contentText, type Message } from "@vf-rl/core";
import { type LoadedRun, type RolloutRecord, type RunEntry, readRun } from "@vf-rl/core/results";
import { readTrace } from "./saved-trace.ts";
import { type TraceBranches, traceBranches } from "./trace-branches.ts";

export type Key =
  | "up"
  | "down"
  | "pageup"
  | "pagedown"
  | "home"
  | "end"
  | "enter"
  | "back"
  | "search"
  | "quit"
  | "backspace"
  | "previous-branch"
  | "next-branch"
  | "previous-rollout"
  | "next-rollout"
  | { char: string };

export type Screen =
  | { kind: "runs"; cursor: number; query: string }
  | { kind: "rollouts"; run: LoadedRun; cursor: number; query: string }
  /** `branch`: the index (in `recordBranches`) of the agent trace's branch shown; 0 without a trace. */
  | { kind: "rollout"; run: LoadedRun; index: number; scroll: number; branch: number };

export interface ViewerState {
  runs: RunEntry[];
  stack: Screen[];
  /** Text typed after "/", while searching. */
  typing: string | null;
  /** A one-line notice (a run that cannot be read). */
  notice: string | null;
  quit: boolean;
}

export function initialState(runs: RunEntry[]): ViewerState {
  return { runs, stack: [{ kind: "runs", cursor: 0, query: "" }], typing: null, notice: null, quit: false };
}

export function top(state: ViewerState): Screen {
  return state.stack[state.stack.length - 1]!;
}

/** The runs shown on the runs screen, after its search. */
export function visibleRuns(state: ViewerState, query: string): RunEntry[] {
  const q = query.toLowerCase();
  return state.runs.filter((run) => {
    if (!q) return true;
    const text =
      run.type === "run"
        ? `${run.envId} ${run.harness ?? ""} ${run.model} ${run.runId} ${run.status}`
        : run.dir;
    return text.toLowerCase().includes(q);
  });
}

/**
 * Indices of a run's rollouts by example, then rollout, as a run's rows are saved in the order
 * rollouts finished (#0, #1, #7, #3, ...); equal ones keep their saved order.
 */
export function rolloutOrder(run: LoadedRun): number[] {
  const records = run.records;
  return records
    .map((_, i) => i)
    .sort(
      (a, b) =>
        records[a]!.example_id - records[b]!.example_id ||
        records[a]!.rollout_index - records[b]!.rollout_index ||
        a - b,
    );
}

/**
 * Indices of the rollouts shown on a rollouts screen (by example and rollout), after its search: a
 * rollout matches by its error, stop condition, answer, messages and the tool calls in them, and an
 * agent's also by every branch of its trace, the errors that ended it and the program's output.
 */
export function visibleRollouts(run: LoadedRun, query: string): number[] {
  const q = query.toLowerCase();
  const ordered = rolloutOrder(run);
  if (!q) return ordered;
  return ordered.filter((i) => searchText(run.records[i]!).toLowerCase().includes(q));
}

function searchText(record: RolloutRecord): string {
  const read = readTrace(record);
  const trace = read.type === "trace" ? read.trace : null;
  return [
    record.error?.error ?? "",
    record.stop_condition ?? "",
    record.answer,
    ...record.completion.map(messageText),
    ...record.prompt.map(messageText),
    ...(trace?.nodes.map((node) => messageText(node.message)) ?? []),
    ...(trace?.errors.map((error) => `${error.type} ${error.message}`) ?? []),
    trace?.output ?? "",
  ].join(" ");
}

/** A message's text and, for an assistant's, the tool calls it made (name and arguments). */
function messageText(message: Message): string {
  const calls = message.role === "assistant" ? (message.tool_calls ?? []) : [];
  return [
    contentText(message.content),
    ...calls.map((c) => `${c.function.name} ${c.function.arguments}`),
  ].join(" ");
}

/** The branches of a row's agent trace; null for an environment's own rollout or an unreadable trace. */
export function recordBranches(record: RolloutRecord): TraceBranches | null {
  const read = readTrace(record);
  return read.type === "trace" ? traceBranches(read.trace) : null;
}

/** Applies one key. `pageSize` is how many list rows fit on the screen. */
export async function press(state: ViewerState, input: Key, pageSize: number): Promise<ViewerState> {
  if (state.typing !== null) return typeKey(state, input);
  const key = typeof input === "object" ? (LETTER_KEYS[input.char] ?? input) : input;
  const screen = top(state);
  const next: ViewerState = { ...state, notice: null };
  if (key === "quit") return { ...next, quit: true };
  if (key === "back" || key === "backspace") {
    return state.stack.length > 1
      ? { ...next, stack: state.stack.slice(0, -1) }
      : { ...next, quit: key === "back" };
  }
  if (key === "search" && screen.kind !== "rollout") return { ...next, typing: "" };
  if (screen.kind === "rollout" && (key === "previous-rollout" || key === "next-rollout"))
    return { ...next, stack: stepRollout(state.stack, key) };
  if (screen.kind === "rollout")
    return { ...next, stack: replaceTop(state, scrollBy(screen, key, pageSize)) };
  const length =
    screen.kind === "runs"
      ? visibleRuns(state, screen.query).length
      : visibleRollouts(screen.run, screen.query).length;
  if (key === "enter") return open(next, screen);
  const cursor = move(screen.cursor, key, length, pageSize);
  return { ...next, stack: replaceTop(state, { ...screen, cursor }) };
}

async function open(state: ViewerState, screen: Screen): Promise<ViewerState> {
  if (screen.kind === "runs") {
    const entry = visibleRuns(state, screen.query)[screen.cursor];
    if (!entry) return state;
    if (entry.type === "unreadable")
      return { ...state, notice: `cannot open ${entry.dir}: ${entry.message}` };
    try {
      const run = await readRun(entry.dir);
      return { ...state, stack: [...state.stack, { kind: "rollouts", run, cursor: 0, query: "" }] };
    } catch (error) {
      return {
        ...state,
        notice: `cannot open ${entry.dir}: ${error instanceof Error ? error.message : error}`,
      };
    }
  }
  if (screen.kind === "rollouts") {
    const index = visibleRollouts(screen.run, screen.query)[screen.cursor];
    if (index === undefined) return state;
    return { ...state, stack: [...state.stack, rolloutScreen(screen.run, index)] };
  }
  return state;
}

/** A rollout opened at its top, on its trace's main branch. */
function rolloutScreen(run: LoadedRun, index: number): Screen {
  return { kind: "rollout", run, index, scroll: 0, branch: recordBranches(run.records[index]!)?.main ?? 0 };
}

/**
 * The rollout before or after the one shown, in the list it was opened from (its search kept), with
 * that list's cursor moved along so going back lands on it; stays at either end.
 */
function stepRollout(stack: Screen[], key: Key): Screen[] {
  const list = stack[stack.length - 2];
  const shown = stack[stack.length - 1];
  if (list?.kind !== "rollouts" || shown?.kind !== "rollout") return stack;
  const visible = visibleRollouts(list.run, list.query);
  const cursor = visible.indexOf(shown.index) + (key === "next-rollout" ? 1 : -1);
  const index = visible[cursor];
  if (index === undefined || cursor < 0) return stack;
  return [...stack.slice(0, -2), { ...list, cursor }, rolloutScreen(list.run, index)];
}

/** Letters that act as keys outside a search (less/vim habits). */
const LETTER_KEYS: Record<string, Key> = {
  q: "quit",
  b: "back",
  h: "back",
  j: "down",
  k: "up",
  l: "enter",
  g: "home",
  G: "end",
  "/": "search",
  " ": "pagedown",
  "[": "previous-branch",
  "]": "next-branch",
  p: "previous-rollout",
  n: "next-rollout",
};

function typeKey(state: ViewerState, key: Key): ViewerState {
  const typing = state.typing ?? "";
  if (key === "enter") {
    const screen = top(state);
    if (screen.kind === "rollout") return { ...state, typing: null };
    return { ...state, typing: null, stack: replaceTop(state, { ...screen, query: typing, cursor: 0 }) };
  }
  if (key === "back") return { ...state, typing: null };
  if (key === "backspace") return { ...state, typing: typing.slice(0, -1) };
  if (typeof key === "object") return { ...state, typing: typing + key.char };
  return state;
}

function move(cursor: number, key: Key, length: number, page: number): number {
  const last = Math.max(0, length - 1);
  const target =
    key === "up"
      ? cursor - 1
      : key === "down"
        ? cursor + 1
        : key === "pageup"
          ? cursor - page
          : key === "pagedown"
            ? cursor + page
            : key === "home"
              ? 0
              : key === "end"
                ? last
                : cursor;
  return Math.min(last, Math.max(0, target));
}

function scrollBy(screen: Extract<Screen, { kind: "rollout" }>, key: Key, page: number): Screen {
  if (key === "previous-branch" || key === "next-branch") return switchBranch(screen, key);
  const delta =
    key === "up" ? -1 : key === "down" ? 1 : key === "pageup" ? -page : key === "pagedown" ? page : 0;
  if (key === "home") return { ...screen, scroll: 0 };
  if (key === "end") return { ...screen, scroll: Number.MAX_SAFE_INTEGER };
  return { ...screen, scroll: Math.max(0, screen.scroll + delta) };
}

/** The previous or next branch of the rollout's trace, from the top of its conversation; stays at either end. */
function switchBranch(screen: Extract<Screen, { kind: "rollout" }>, key: Key): Screen {
  const count = recordBranches(screen.run.records[screen.index]!)?.branches.length ?? 0;
  const branch = Math.min(
    Math.max(0, count - 1),
    Math.max(0, screen.branch + (key === "next-branch" ? 1 : -1)),
  );
  return branch === screen.branch ? screen : { ...screen, branch, scroll: 0 };
}

function replaceTop(state: ViewerState, screen: Screen): Screen[] {
  return [...state.stack.slice(0, -1), screen];
}

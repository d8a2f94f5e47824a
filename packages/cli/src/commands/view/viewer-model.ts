/**
 * The state of `vf view` and how keys change it: a stack of screens (runs → rollouts → one
 * rollout), a cursor and scroll per screen, a search that filters the current list, and on an
 * agent's rollout the branch of its trace shown. Pure except for loading a run when it is opened;
 * the terminal shell and the tests drive it the same way.
 */
import { type LoadedRun, type RunEntry, readRun } from "@vf-rl/core/results";
import { type RolloutLayout, rolloutKey, rolloutScreen, stepRollout } from "./rollout-keys.ts";
import { visibleRollouts } from "./rollout-list.ts";

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
  | "previous-section"
  | "next-section"
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
  return matchingRuns(state.runs, query);
}

/** The runs whose environment, harness, model, id or status holds `query` (an unreadable one's folder). */
export function matchingRuns(runs: readonly RunEntry[], query: string): RunEntry[] {
  const q = query.toLowerCase();
  return runs.filter((run) => {
    if (!q) return true;
    const text =
      run.type === "run"
        ? `${run.envId} ${run.harness ?? ""} ${run.model} ${run.runId} ${run.status}`
        : run.dir;
    return text.toLowerCase().includes(q);
  });
}

/**
 * Applies one key. `pageSize` is how many list rows fit on the screen; `layout`, the rollout shown as
 * drawn, is what section keys need (render-viewer's `rolloutLayout`).
 */
export async function press(
  state: ViewerState,
  input: Key,
  pageSize: number,
  layout?: RolloutLayout,
): Promise<ViewerState> {
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
    return { ...next, stack: replaceTop(state, rolloutKey(screen, key, pageSize, layout)) };
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
  "{": "previous-section",
  "}": "next-section",
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

function replaceTop(state: ViewerState, screen: Screen): Screen[] {
  return [...state.stack.slice(0, -1), screen];
}

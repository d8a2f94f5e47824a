/**
 * The branches of an agent's message graph: one per leaf, the path of messages from its root to
 * it. An agent whose calls all extend one conversation has one branch; a compaction, a subagent's
 * conversation, a retried call or a history the template re-rendered starts another. The main
 * branch is the one holding the last reply the model gave (what the row's prompt and completion
 * hold, core's `traceConversation`); the others are listed in the order they were started.
 */
import type { RolloutRecord } from "../records/rollout-record.ts";
import { readTrace, type SavedCall, type SavedNode, type SavedTrace } from "./saved-trace.ts";

/** One branch: the path of messages from the graph's root to one leaf. */
export interface TraceBranch {
  /** Node indices from the root to the leaf. */
  path: number[];
  /** Indices (in `trace.calls`) of the calls whose reply is on this branch, in order. */
  calls: number[];
  /** How many of the first messages it shares with the main branch (all of them on the main branch). */
  shared: number;
}

/** A trace's branches and which one is the main one. */
export interface TraceBranches {
  branches: TraceBranch[];
  /** Index of the main branch in `branches`; 0 when no reply was recorded. */
  main: number;
}

// Screens are redrawn on every key: each trace's branches are found once.
const found = new WeakMap<SavedTrace, TraceBranches>();

/** The branches of `trace`'s message graph, the main one marked; see the file comment. */
export function traceBranches(trace: SavedTrace): TraceBranches {
  const cached = found.get(trace);
  if (cached) return cached;
  const { nodes, calls } = trace;
  const hasChild = new Set(nodes.map((node) => node.parent));
  const paths = nodes.flatMap((_, id) => (hasChild.has(id) ? [] : [pathTo(nodes, id)]));
  const last = calls.findLast((call) => call.node !== null)?.node ?? null;
  const main = Math.max(
    0,
    paths.findIndex((path) => last !== null && path.includes(last)),
  );
  const mainPath = paths[main] ?? [];
  const result: TraceBranches = {
    main,
    branches: paths.map((path) => ({
      path,
      calls: callsOn(calls, path),
      shared: sharedPrefix(path, mainPath),
    })),
  };
  found.set(trace, result);
  return result;
}

/** The branches of a row's agent trace; null for an environment's own rollout or an unreadable trace. */
export function recordBranches(record: RolloutRecord): TraceBranches | null {
  const read = readTrace(record);
  return read.type === "trace" ? traceBranches(read.trace) : null;
}

/** The path from `leaf`'s root to it; a parent that is missing or loops back ends it (a damaged file). */
function pathTo(nodes: SavedNode[], leaf: number): number[] {
  const path: number[] = [];
  const seen = new Set<number>();
  for (let id: number | null = leaf; id !== null && nodes[id] && !seen.has(id); id = nodes[id]!.parent) {
    seen.add(id);
    path.push(id);
  }
  return path.reverse();
}

function callsOn(calls: SavedCall[], path: number[]): number[] {
  const onPath = new Set(path);
  return calls.flatMap((call, i) => (call.node !== null && onPath.has(call.node) ? [i] : []));
}

function sharedPrefix(a: number[], b: number[]): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}

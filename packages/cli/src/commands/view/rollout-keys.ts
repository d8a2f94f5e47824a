/**
 * What keys do on one rollout: open it on its trace's main branch, step to the rollout before or
 * after it in its list, scroll it by line, page or section, and move between its trace's branches.
 */
import type { LoadedRun } from "@vf-rl/core/results";
import { recordBranches } from "@vf-rl/core/results";
import { visibleRollouts } from "./rollout-list.ts";
import type { Key, Screen } from "./viewer-model.ts";

type RolloutScreen = Extract<Screen, { kind: "rollout" }>;

/** The rollout as drawn: where its sections start (the lines section keys jump to), and its last scroll. */
export interface RolloutLayout {
  sections: readonly number[];
  lastScroll: number;
}

/** A rollout opened at its top, on its trace's main branch. */
export function rolloutScreen(run: LoadedRun, index: number): RolloutScreen {
  return { kind: "rollout", run, index, scroll: 0, branch: recordBranches(run.records[index]!)?.main ?? 0 };
}

/**
 * The rollout before or after the one shown, in the list it was opened from (its search kept), with
 * that list's cursor moved along so going back lands on it; stays at either end.
 */
export function stepRollout(stack: Screen[], key: Key): Screen[] {
  const list = stack[stack.length - 2];
  const shown = stack[stack.length - 1];
  if (list?.kind !== "rollouts" || shown?.kind !== "rollout") return stack;
  const visible = visibleRollouts(list.run, list.query);
  const cursor = visible.indexOf(shown.index) + (key === "next-rollout" ? 1 : -1);
  const index = visible[cursor];
  if (index === undefined || cursor < 0) return stack;
  return [...stack.slice(0, -2), { ...list, cursor }, rolloutScreen(list.run, index)];
}

/**
 * A key on a rollout: scrolling (by line, page, or to the next or previous section as `layout` has
 * them), or another branch of its trace.
 */
export function rolloutKey(
  screen: RolloutScreen,
  key: Key,
  page: number,
  layout?: RolloutLayout,
): RolloutScreen {
  if (key === "previous-branch" || key === "next-branch") return switchBranch(screen, key);
  if (key === "previous-section" || key === "next-section") return jumpSection(screen, key, layout);
  const delta =
    key === "up" ? -1 : key === "down" ? 1 : key === "pageup" ? -page : key === "pagedown" ? page : 0;
  if (key === "home") return { ...screen, scroll: 0 };
  if (key === "end") return { ...screen, scroll: Number.MAX_SAFE_INTEGER };
  return { ...screen, scroll: Math.max(0, screen.scroll + delta) };
}

/** The previous or next branch of the rollout's trace, from the top of its conversation; stays at either end. */
function switchBranch(screen: RolloutScreen, key: Key): RolloutScreen {
  const count = recordBranches(screen.run.records[screen.index]!)?.branches.length ?? 0;
  const branch = Math.min(
    Math.max(0, count - 1),
    Math.max(0, screen.branch + (key === "next-branch" ? 1 : -1)),
  );
  return branch === screen.branch ? screen : { ...screen, branch, scroll: 0 };
}

/** The next or previous section's first line, from where the screen stands. */
function jumpSection(screen: RolloutScreen, key: Key, layout: RolloutLayout | undefined): RolloutScreen {
  if (!layout) return screen;
  const at = Math.min(screen.scroll, layout.lastScroll);
  const target =
    key === "next-section"
      ? (layout.sections.find((line) => line > at) ?? layout.lastScroll)
      : (layout.sections.findLast((line) => line < at) ?? 0);
  return { ...screen, scroll: Math.min(target, layout.lastScroll) };
}

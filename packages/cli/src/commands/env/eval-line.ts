/**
 * The command that evaluates a Hub package once installed, as vf env info and vf env install print
 * it: an environment runs its own rollouts; a taskset's tasks are worked on by a harness (bash by
 * default, which the line names so that the choice is visible).
 */
import { vfCommand } from "../../vf-command.ts";

/** `vf eval ID`, or for a taskset `vf eval ID --harness bash` and the other harnesses it takes. */
export function evalLine(id: string, kind: "environment" | "taskset"): string {
  return kind === "taskset"
    ? `${vfCommand(`eval ${id} --harness bash`)}  (a taskset: any harness, e.g. claude-code, codex)`
    : vfCommand(`eval ${id}`);
}

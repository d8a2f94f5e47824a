/**
 * The harnesses vf ships, by the id `vf eval --harness <id>` names them. A harness of your own is
 * any object implementing core's `Harness` (see examples/agents/one-shot-harness.ts); it needs no
 * entry here to run through `AgentEnv` or `runAgentRollout`.
 */
import type { Harness } from "@vf-rl/core/agents";
import { UserError } from "@vf-rl/core/errors";
import { bashHarness } from "./bash/bash-harness.ts";
import { chatHarness } from "./chat/chat-harness.ts";
import { claudeCodeHarness } from "./claude-code/claude-code-harness.ts";
import { codexHarness } from "./codex/codex-harness.ts";
import { opencodeHarness } from "./opencode/opencode-harness.ts";
import { piHarness } from "./pi/pi-harness.ts";

/** Each shipped harness with its defaults, by id: vf's own, and agent CLIs installed from npm. */
export const HARNESSES: Readonly<Record<string, () => Harness>> = {
  bash: () => bashHarness(),
  chat: () => chatHarness(),
  "claude-code": () => claudeCodeHarness(),
  codex: () => codexHarness(),
  pi: () => piHarness(),
  opencode: () => opencodeHarness(),
};

/** The shipped harness `id` names; a UserError listing them when none does. */
export function harnessById(id: string): Harness {
  const make = HARNESSES[id];
  if (!make) {
    throw new UserError(`there is no harness "${id}": use one of ${Object.keys(HARNESSES).join(", ")}`);
  }
  return make();
}

/**
 * The harnesses vf ships, by the id `vf eval --harness <id>` names them. A harness of your own is
 * any object implementing core's `Harness` (see examples/agents/one-shot-harness.ts); it needs no
 * entry here to run through `AgentEnv` or `runAgentRollout`.
 */
import type { Harness } from "@vf-rl/core/agents";
import { issueLines } from "@vf-rl/core/config";
import { UserError } from "@vf-rl/core/errors";
import type { z } from "zod";
import { BashHarnessOptions, bashHarness } from "./bash/bash-harness.ts";
import { chatHarness } from "./chat/chat-harness.ts";
import { claudeCodeHarness } from "./claude-code/claude-code-harness.ts";
import { codexHarness } from "./codex/codex-harness.ts";
import { opencodeHarness } from "./opencode/opencode-harness.ts";
import { piHarness } from "./pi/pi-harness.ts";

/**
 * Each shipped harness by id, made from its options (a config's `[env.agent.harness]` keys besides
 * `id`): vf's own, and agent CLIs installed from npm. A harness that takes none is made with its defaults.
 */
export const HARNESSES: Readonly<Record<string, (options: Record<string, unknown>) => Harness>> = {
  bash: (options) => bashHarness(harnessOptions("bash", BashHarnessOptions, options)),
  chat: () => chatHarness(),
  "claude-code": () => claudeCodeHarness(),
  codex: () => codexHarness(),
  pi: () => piHarness(),
  opencode: () => opencodeHarness(),
};

/** Harnesses whose options a config may set. */
const CONFIGURABLE = new Set(["bash"]);

/**
 * The shipped harness `id` names, made with `options`; a UserError listing them when none does,
 * and one naming the option when an option is wrong.
 */
export function harnessById(id: string, options: Record<string, unknown> = {}): Harness {
  const make = HARNESSES[id];
  if (!make) {
    throw new UserError(`there is no harness "${id}": use one of ${Object.keys(HARNESSES).join(", ")}`);
  }
  const named = Object.keys(options);
  if (named.length > 0 && !CONFIGURABLE.has(id)) {
    throw new UserError(`the ${id} harness takes no options (${named.join(", ")} given): leave only its id`);
  }
  return make(options);
}

/** `options` checked by `schema`, or a UserError with its first issue. */
function harnessOptions<T extends z.ZodType>(
  id: string,
  schema: T,
  options: Record<string, unknown>,
): z.output<T> {
  const parsed = schema.safeParse(options);
  if (parsed.success) return parsed.data;
  throw new UserError(`the ${id} harness's options are wrong: ${issueLines(parsed.error)[0]}`);
}

/**
 * For the harnesses' tests only (never built or shipped): scripted models that work on a coding
 * task the way an agent would (a bash tool call, then an answer), and the runtimes to run them in,
 * the local sandbox only where this machine can confine a program.
 */
import type { AgentTask, RuntimeFactory } from "@vf-rl/core/agents";
import type { ReplyFn } from "@vf-rl/core/testing";
import { localRuntime } from "../local/local-runtime.ts";
import { subprocessRuntime } from "../subprocess/subprocess-runtime.ts";

/** js-slugify's fix as a user would type it: sed the trim of stray dashes in, then run the tests. */
export const SLUGIFY_FIX = `sed -i 's#\\.replace(/\\[^a-z0-9\\]+/g, "-");#.replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");#' src/slugify.js && node --test`;

/** A command writing `files` (path to content) with heredocs. */
export function writeFilesCommand(files: Record<string, string>): string {
  return Object.entries(files)
    .map(
      ([path, content]) =>
        `mkdir -p "$(dirname '${path}')" && cat > '${path}' <<'VF_EOF'\n${content}\nVF_EOF`,
    )
    .join("\n");
}

/**
 * A model that answers each conversation's first call with a bash call running `command(prompt)`
 * (null: answers at once without one), and any later call with "Done.".
 */
export function bashThenAnswer(command: (userText: string) => string | null): ReplyFn {
  return (request) => {
    if (request.messages.some((message) => message.role === "tool")) return "Done.";
    const user = request.messages.find((message) => message.role === "user");
    const run = command(typeof user?.content === "string" ? user.content : "");
    if (run === null) return "I cannot fix this.";
    return { type: "message", toolCalls: [{ name: "bash", arguments: { command: run } }] };
  };
}

/** Why the local sandbox cannot run here, or null when it can (a trial runtime is made and closed). */
export async function localRuntimeUnavailable(task: AgentTask): Promise<string | null> {
  try {
    const runtime = await localRuntime().create(task, { interceptionUrl: "http://127.0.0.1:9" });
    await runtime.close();
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** The runtimes a harness test runs in: the subprocess one, and the local sandbox where it can run. */
export function testRuntimes(localUnavailable: string | null): Array<[string, () => RuntimeFactory]> {
  const runtimes: Array<[string, () => RuntimeFactory]> = [
    ["subprocess", () => subprocessRuntime({ quiet: true })],
  ];
  if (localUnavailable === null) runtimes.push(["local", () => localRuntime()]);
  else console.warn(`the local runtime's cases are skipped: ${localUnavailable}`);
  return runtimes;
}

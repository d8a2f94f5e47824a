/**
 * For this package's tests only (never built or shipped): the trace `score` is handed, and a
 * runtime whose programs cannot be found.
 */
import type { AgentScoreContext, Runtime } from "@vf-rl/core/agents";

/**
 * A trace for `score`, which reads only the runtime: an agent that made no model call and ended on
 * its own (the fields of the trace it does not read are left out).
 */
export const unreadTrace = {
  calls: [],
  stop: "agent_completed",
  errors: [],
  exitCode: 0,
  output: "",
} as unknown as AgentScoreContext["trace"];

/** `runtime` running every program with an empty PATH: a runtime that has neither node nor python3. */
export function withoutPrograms(runtime: Runtime): Runtime {
  return {
    workdir: runtime.workdir,
    exec: (argv, options) => runtime.exec(["/usr/bin/env", "PATH=/nonexistent", ...argv], options),
    readFile: (path) => runtime.readFile(path),
    writeFile: (path, content) => runtime.writeFile(path, content),
    close: () => runtime.close(),
  };
}

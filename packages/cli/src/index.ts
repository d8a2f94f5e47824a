/** @vf-rl/cli: the vf command, callable in-process (tests, scripts). */
export { main } from "./main.ts";
export { type Output, processOutput } from "./terminal/output.ts";

/** @vf-rl/test-support: run this repository's real vf binary from tests (the CLI's and the bundled environments'). */

export { type EvalScriptedOptions, type EvalScriptedResult, evalScripted } from "./eval-scripted.ts";
export { type RunVfOptions, runVf, VF_BIN, type VfResult } from "./run-vf.ts";

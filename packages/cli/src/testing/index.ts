/** @vf-rl/cli/testing: run the real vf binary from tests (environment packages use it too). */

export { type EvalScriptedOptions, type EvalScriptedResult, evalScripted } from "./eval-scripted.ts";
export { type RunVfOptions, runVf, VF_BIN, type VfResult } from "./run-vf.ts";

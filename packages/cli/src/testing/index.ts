/** @vf/cli/testing: run the real vf binary from tests (environment packages use it too). */
export { type RunVfOptions, runVf, VF_BIN, type VfResult } from "./run-vf.ts";

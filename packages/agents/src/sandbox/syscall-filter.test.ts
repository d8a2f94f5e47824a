// The filter's program; what it refuses is tested by making the calls in a sandbox
// (the python environment's sandbox-escapes.test.ts, and local/hostile-programs.test.ts).
import { SandboxError } from "@vf-rl/core";
import { describe, expect, it } from "vitest";
import { syscallFilter, syscallNumber } from "./syscall-filter.ts";

describe("syscallFilter", () => {
  it("is a program of whole instructions, on every architecture it knows", () => {
    for (const arch of ["x64", "arm64", "riscv64"]) {
      for (const allowParentDeathSignal of [false, true]) {
        const program = syscallFilter({ arch, allowParentDeathSignal });
        expect(program.length % 8).toBe(0);
        expect(program.length / 8).toBeLessThan(256);
      }
    }
    expect(syscallNumber("unshare", "x64")).toBe(272);
    expect(syscallNumber("unshare", "arm64")).toBe(97);
  });

  it("refuses an architecture it has no table for, instead of running unfiltered", () => {
    expect(() => syscallFilter({ arch: "ppc64" })).toThrow(SandboxError);
    expect(() => syscallFilter({ arch: "ppc64" })).toThrow(
      "the sandbox has no system-call table for the ppc64 architecture (it knows x64, arm64 and riscv64): run on one of those",
    );
  });
});

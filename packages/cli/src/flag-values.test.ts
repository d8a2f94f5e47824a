import { describe, expect, it } from "vitest";
import { UsageError } from "./cli-errors.ts";
import { countOrAllFlag, integerFlag, numberFlag, portFlag, threadsFlag } from "./flag-values.ts";

describe("flag values", () => {
  it("take whole numbers within their bounds", () => {
    expect(integerFlag("-r", 1)("3")).toBe(3);
    expect(() => integerFlag("-r", 1)("0")).toThrow('-r must be a whole number ≥ 1, got "0"');
    expect(() => integerFlag("-r", 1)("2.5")).toThrow(UsageError);
    expect(() => integerFlag("-r", 1)("")).toThrow(UsageError);
  });

  it("refuse numbers too large to count exactly, instead of a schema dump", () => {
    expect(() => integerFlag("-n")("99999999999999999999")).toThrow(
      "-n is too large (99999999999999999999): use a number below 9007199254740991",
    );
  });

  it("read -1 as all, and any other count below 1 as a mistake", () => {
    const n = countOrAllFlag("-n");
    expect(n("-1")).toBe(-1);
    expect(n("20")).toBe(20);
    expect(() => n("-5")).toThrow('-n must be at least 1, or -1 for all, got "-5"');
    expect(() => n("0")).toThrow('-n must be at least 1, or -1 for all, got "0"');
  });

  it("refuse a time limit of zero or less", () => {
    const timeout = numberFlag("--timeout", { positive: true });
    expect(timeout("1.5")).toBe(1.5);
    expect(() => timeout("0")).toThrow('--timeout must be greater than 0, got "0"');
    expect(() => timeout("-1")).toThrow('--timeout must be greater than 0, got "-1"');
    expect(numberFlag("-T")("0")).toBe(0);
  });

  it("take ports from 0 to 65535", () => {
    expect(portFlag("--port")("0")).toBe(0);
    expect(portFlag("--port")("65535")).toBe(65535);
    expect(() => portFlag("--port")("99999")).toThrow(
      '--port must be a port from 0 to 65535 (0: any free port), got "99999"',
    );
  });

  it("take a number of threads, or auto", () => {
    const threads = threadsFlag("--threads");
    expect(threads("auto")).toBe("auto");
    expect(threads("2")).toBe(2);
    expect(() => threads("0")).toThrow('--threads must be a whole number ≥ 1 or "auto", got "0"');
    expect(() => threads("two")).toThrow('--threads must be a whole number ≥ 1 or "auto", got "two"');
  });
});

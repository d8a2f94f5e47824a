import { describe, expect, it } from "vitest";
import { CalculationError, calculate, MAX_DEPTH, MAX_EXPRESSION_LENGTH } from "./calculator.ts";

describe("calculate", () => {
  it("does arithmetic with the usual precedence", () => {
    expect(calculate("16 - 3 - 4")).toBe("9");
    expect(calculate("(80000 + 50000) * 1.5")).toBe("195000");
    expect(calculate("2 + 3 * 4")).toBe("14");
    expect(calculate("(2 + 3) * 4")).toBe("20");
    expect(calculate("48/2")).toBe("24");
    expect(calculate("7 / 2")).toBe("3.5");
    expect(calculate(".5 + 1.")).toBe("1.5");
    expect(calculate("1.5e3 + 2E-1")).toBe("1500.2");
    expect(calculate("  12 *\n 3 ")).toBe("36");
  });

  it("reads ** and ^ as powers, right-associative and tighter than a sign", () => {
    expect(calculate("2 ** 10")).toBe("1024");
    expect(calculate("2^10")).toBe("1024");
    expect(calculate("2 ** 3 ** 2")).toBe("512");
    expect(calculate("-2 ** 2")).toBe("-4");
    expect(calculate("(-2) ** 2")).toBe("4");
    expect(calculate("2 ** -1")).toBe("0.5");
    expect(calculate("9 ** 0.5")).toBe("3");
  });

  it("handles signs, remainders with the divisor's sign, and × ÷ −", () => {
    expect(calculate("--3")).toBe("3");
    expect(calculate("-(4 - 10)")).toBe("6");
    expect(calculate("+5")).toBe("5");
    expect(calculate("17 % 5")).toBe("2");
    expect(calculate("-7 % 3")).toBe("2");
    expect(calculate("7 % -3")).toBe("-2");
    expect(calculate("560 // 10")).toBe("56");
    expect(calculate("-7 // 2")).toBe("-4");
    expect(calculate("6 × 7 ÷ 2 − 1")).toBe("20");
    expect(calculate("-0 * 5")).toBe("0");
  });

  it("hides float noise beyond 15 significant digits", () => {
    expect(calculate("0.1 + 0.2")).toBe("0.3");
    expect(calculate("1.1 * 3")).toBe("3.3");
    expect(calculate("1 / 3")).toBe("0.333333333333333");
    expect(calculate("10 ** 21")).toBe("1e+21");
  });
});

describe("calculate on bad input", () => {
  const fails = (expression: string, message: RegExp) => {
    expect(() => calculate(expression)).toThrow(CalculationError);
    expect(() => calculate(expression)).toThrow(message);
  };

  it("says what is wrong with malformed expressions", () => {
    fails("", /the expression is empty: write one such as 3 \* \(4 \+ 5\)/);
    fails("   ", /empty/);
    fails("3 +", /a number or "\(" was expected at the end/);
    fails("(3 + 4", /missing "\)" for the "\(" at character 1/);
    fails("3 + 4)", /unexpected "\)" at character 6: an operator .* or the end was expected/);
    fails("2(3 + 4)", /unexpected "\(" at character 2/);
    fails("3 * * 4", /a number or "\(" was expected at character 5, found "\*"/);
    fails("1.2.3", /unexpected "\.3"/);
    fails("1,000 + 5", /write numbers without thousands separators \(1000, not 1,000\)/);
    fails("20% * 50", /"%" is the remainder operator; for a percentage write 20\/100/);
    fails(
      "x + 1",
      /unexpected "x" at character 1: only numbers, \+ - \* \/ \/\/ % \*\* \^ and parentheses are allowed/,
    );
    fails("3 = 3", /unexpected "=" at character 3/);
  });

  it("refuses division by zero and results that are not finite real numbers", () => {
    fails("5 / 0", /division by zero/);
    fails("5 / (3 - 3)", /division by zero/);
    fails("5 % 0", /remainder of a division by zero/);
    fails("5 // 0", /division by zero/);
    fails("0 ** -1", /0 to a negative power divides by zero/);
    fails("(-8) ** (1/3)", /-8 \*\* 0.333333333333333 is not a real number/);
    fails("10 ** 400", /the result of "\*\*" is too large/);
    fails("1e308 * 10", /the result of "\*" is too large/);
  });
});

// Each refusal is checked before any work that grows with the input (9 ** 9 ** 9 evaluated, a
// 10,000-level nest recursed), which would outlast the test's time limit.
describe("calculate on hostile input", () => {
  const refused = (expression: string, message: RegExp) => {
    expect(() => calculate(expression)).toThrow(message);
  };

  it("runs no code: names, properties and calls are refused as text", () => {
    let exited = false;
    const exit = process.exit;
    process.exit = (() => {
      exited = true;
    }) as typeof process.exit;
    try {
      refused("process.exit()", /unexpected "process" at character 1/);
      refused("constructor", /unexpected "constructor" at character 1/);
      refused("__proto__", /unexpected "__proto__" at character 1/);
      refused("(1).constructor.constructor('return process')()", /unexpected "\." at character 4/);
      refused("require('fs')", /unexpected "require"/);
      refused("globalThis", /unexpected "globalThis"/);
      refused("1; while(true){}", /unexpected ";" at character 2/);
      refused(["`$", "{1}`"].join(""), /unexpected "`" at character 1/); // a template literal
      refused("💣 + 1", /unexpected "💣" at character 1/);
    } finally {
      process.exit = exit;
    }
    expect(exited).toBe(false);
  });

  it("refuses numbers and powers too large for a double without working on them", () => {
    refused("1e999999", /the number 1e999999 is too large/);
    refused("9".repeat(400), /is too large/);
    refused("9 ** 9 ** 9", /too large/);
    refused("2 ** 2 ** 2 ** 2 ** 2", /too large/);
  });

  it("refuses over-long input and deep nesting before recursing", () => {
    const deep = (n: number) => `${"(".repeat(n)}1${")".repeat(n)}`;
    refused(deep(10_000), new RegExp(`20001 characters long, over the limit of ${MAX_EXPRESSION_LENGTH}`));
    refused(`${"1+".repeat(600)}1`, /over the limit/);
    refused(deep(MAX_DEPTH + 5), new RegExp(`nests more than ${MAX_DEPTH} levels deep`));
    refused(`${"-".repeat(300)}1`, /nests more than/);
    refused(`2${" ** 2".repeat(150)}`, /nests more than/);
    expect(calculate(deep(MAX_DEPTH - 1))).toBe("1");
    expect(calculate(`${"1+".repeat(400)}1`)).toBe("401");
  });
});

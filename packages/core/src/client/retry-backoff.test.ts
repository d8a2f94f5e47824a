import { describe, expect, it } from "vitest";
import { CancelledError } from "../errors.ts";
import { backoffMs, sleep } from "./retry-backoff.ts";

describe("backoffMs", () => {
  const options = { initialMs: 500, maxMs: 8000 };

  it("doubles from the first delay, with jitter between half and all of it", () => {
    for (let attempt = 0; attempt < 4; attempt++) {
      const full = 500 * 2 ** attempt;
      for (let i = 0; i < 50; i++) {
        const delay = backoffMs(attempt, options);
        expect(delay).toBeGreaterThanOrEqual(full / 2);
        expect(delay).toBeLessThanOrEqual(full);
      }
    }
  });

  it("caps the delay, and waits at least a server's Retry-After (up to 60 s)", () => {
    expect(backoffMs(10, options)).toBeLessThanOrEqual(8000);
    expect(backoffMs(0, options, 3000)).toBe(3000);
    expect(backoffMs(0, options, 600_000)).toBe(60_000);
  });
});

describe("sleep", () => {
  it("ends at once with CancelledError when the signal aborts", async () => {
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 20);
    await expect(sleep(120_000, controller.signal)).rejects.toBeInstanceOf(CancelledError);
    expect(Date.now() - started).toBeLessThan(20_000);
  });
});

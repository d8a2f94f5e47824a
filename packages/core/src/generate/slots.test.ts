import { describe, expect, it } from "vitest";
import { Slots } from "./slots.ts";

describe("Slots", () => {
  it("never lets more than its size run at once, and serves waiters in order", async () => {
    const slots = new Slots(3);
    let running = 0;
    let peak = 0;
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 3000 }, (_, i) =>
        slots.with(async () => {
          running++;
          peak = Math.max(peak, running);
          order.push(i);
          await new Promise((r) => setImmediate(r));
          running--;
        }),
      ),
    );
    expect(peak).toBe(3);
    expect(order).toEqual(Array.from({ length: 3000 }, (_, i) => i));
  });

  it("frees the slot when the work throws", async () => {
    const slots = new Slots(1);
    await expect(slots.with(() => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    await expect(slots.with(async () => "ran")).resolves.toBe("ran");
  });
});

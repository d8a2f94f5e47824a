import { describe, expect, it } from "vitest";
import { taskHash } from "./task-hash.ts";

describe("taskHash", () => {
  it("hashes task data as verifiers' task_key does (Python's json.dumps, keys sorted, nulls dropped)", () => {
    const data = {
      idx: 3,
      prompt: [{ role: "user", content: "héllo" }],
      answer: "x",
      info: { b: 1.5, a: [1, 2] },
      task: "default",
      name: null,
    };
    // sha256(json.dumps(data without name, sort_keys=True)) computed by CPython 3.11.
    expect(taskHash(data)).toBe("05b3e9c7eabce3e2847745e0acdca5cc4fecfca7901430e83501092694ad3411");
  });
});

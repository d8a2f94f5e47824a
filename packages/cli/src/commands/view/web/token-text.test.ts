import { BASE_MODEL_DIR, BUILTIN_MODEL_NAME } from "@vf-rl/engine/base-model";
import { describe, expect, it } from "vitest";
import { tokenTextFor } from "./token-text.ts";

describe("the heat map's token text", () => {
  it("decodes the ids of every model the engine serves: the built-in one and checkpoint folders", async () => {
    for (const model of [BUILTIN_MODEL_NAME, BASE_MODEL_DIR, "@vf-env/bash-arithmetic/warm-start"]) {
      const text = await tokenTextFor(model);
      expect(text, model).toBeDefined();
      expect(["h", "i"].map((c) => text!(c.charCodeAt(0)))).toEqual(["h", "i"]);
      expect(text!(0xe2)).toBe("<e2>"); // the first byte of a three-byte character, alone
    }
  });

  it("shows ids for a model whose tokenizer it does not have", async () => {
    for (const model of ["gpt-4.1-mini", "Qwen/Qwen3-8B", "/nowhere/checkpoint"]) {
      expect(await tokenTextFor(model), model).toBeUndefined();
    }
  });
});

import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Dataset } from "../datasets/index.ts";
import { SingleTurnEnv } from "../envs/single-turn-env.ts";
import { AuthoringError, EnvArgsError, UserError } from "../errors.ts";
import { defineEnvironment, type EnvironmentDefinition } from "./define-environment.ts";

const load = () => new SingleTurnEnv({ dataset: Dataset.fromRows([{ question: "hi", answer: "hi" }]) });

describe("defineEnvironment", () => {
  it("checks args against the schema before building the environment", async () => {
    const loadEnvironment = defineEnvironment({ args: z.object({ n: z.number() }).strict(), load });
    expect(await loadEnvironment({ n: 1 })).toBeInstanceOf(SingleTurnEnv);
    await expect(loadEnvironment({ n: "one" })).rejects.toThrow(EnvArgsError);
  });

  it("names a definition without a schema or a load function as the author's mistake", () => {
    // What an environment written in JavaScript, or run unchecked from TypeScript, can pass.
    const missingArgs = { load } as unknown as EnvironmentDefinition<z.ZodType>;
    const missingLoad = { args: z.object({}) } as unknown as EnvironmentDefinition<z.ZodType>;
    expect(() => defineEnvironment(missingArgs)).toThrow(AuthoringError);
    expect(() => defineEnvironment(missingArgs)).toThrow(
      /needs args, a zod schema.*: pass e.g. args: z.object/,
    );
    expect(() => defineEnvironment(missingLoad)).toThrow(UserError);
    expect(() => defineEnvironment(missingLoad)).toThrow(/needs load/);
  });
});

// Core's errors name settings in words, never a host's command-line flags or commands: the same
// setting is a flag of vf eval, a key of a vf train config or an option of `evaluate`, and each
// host adds its own hint from the error's class and fields.
import { describe, expect, it } from "vitest";
import { ApiKeyRejectedError, ModelNotFoundError } from "./client/fatal-model-error.ts";
import { loadEndpointRegistry, resolveApiKey } from "./client/index.ts";
import { requestBody } from "./client/openai-model-client.ts";
import { resolveModel } from "./client/resolve-model.ts";
import { Dataset } from "./datasets/index.ts";
import { EnvGroup } from "./envs/env-group.ts";
import { SingleTurnEnv } from "./envs/single-turn-env.ts";
import { ToolEnv } from "./envs/tool-env.ts";
import {
  EndpointRegistryUnreadableError,
  EndpointUnreachableError,
  EnvironmentNotFoundError,
  EnvSettingsError,
  GroupScoringRequiredError,
  MissingKeyError,
  ModelEndpointUnknownError,
  SamplingArgsError,
  UserError,
} from "./errors.ts";
import { generate } from "./generate/generate.ts";
import { findEnvironment } from "./loading/index.ts";
import { Rubric } from "./rubrics/rubric.ts";

/** A flag such as -x, -k or --api-base-url, or a vf command. */
const HOST_WORDS = /(^|[\s("'`/])--?[a-zA-Z][\w-]*|\bvf (eval|env|train|init|serve)\b/;

const dataset = Dataset.fromRows([{ question: "2+2?", answer: "4" }]);

async function thrown(fn: () => unknown): Promise<Error> {
  try {
    await fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a throw");
}

describe("core's error messages", () => {
  it("name settings, not flags, and carry what a host needs for its hint in fields", async () => {
    const errors: [Error, new (...args: never[]) => Error][] = [
      [await thrown(() => resolveApiKey("VF_TEST_UNSET_KEY", {})), MissingKeyError],
      [await thrown(() => resolveModel({ model: "my-model" })), ModelEndpointUnknownError],
      [
        await thrown(() => loadEndpointRegistry("/nonexistent/endpoints.toml")),
        EndpointRegistryUnreadableError,
      ],
      [
        await thrown(() => requestBody({ model: "m", messages: [], sampling: { extra_body: 5 } })),
        SamplingArgsError,
      ],
      [
        await thrown(() => requestBody({ model: "m", messages: [], sampling: { stream: true } })),
        SamplingArgsError,
      ],
      [await thrown(() => new SingleTurnEnv({ dataset }).configure({ max_turns: 3 })), EnvSettingsError],
      [await thrown(() => new ToolEnv({ dataset, tools: [] }).configure({ max_turn: 3 })), EnvSettingsError],
      [
        await thrown(() => new EnvGroup({ envs: [new SingleTurnEnv({ dataset })] }).configure({ a: 1 })),
        EnvSettingsError,
      ],
      [await thrown(() => findEnvironment("someone/thing@1.0.0", { cwd: "/" })), EnvironmentNotFoundError],
      [
        await thrown(async () => {
          const env = new SingleTurnEnv({
            dataset,
            rubric: new Rubric().addGroupReward((g) => g.map(() => 1), { name: "g" }),
          });
          const { inputs } = await env.inputs({ split: "train" });
          const client = { chat: () => Promise.reject(new Error("not called")) };
          await generate(env, inputs, { clients: client as never, model: "m", independentScoring: true });
        }),
        GroupScoringRequiredError,
      ],
      [new EndpointUnreachableError("http://127.0.0.1:9/v1"), EndpointUnreachableError],
      [new ApiKeyRejectedError("http://127.0.0.1:9/v1", 401, "MY_KEY"), ApiKeyRejectedError],
      [new ApiKeyRejectedError("http://127.0.0.1:9/v1", 401, undefined), ApiKeyRejectedError],
      [new ModelNotFoundError("my-model", "http://127.0.0.1:9/v1", "no such model"), ModelNotFoundError],
    ];
    for (const [error, kind] of errors) {
      expect(error).toBeInstanceOf(kind);
      expect(error.message, error.name).not.toMatch(HOST_WORDS);
    }
    expect(errors.filter(([error]) => !(error instanceof UserError)).map(([error]) => error.name)).toEqual([
      "EndpointUnreachableError",
    ]);
    expect(errors[0]![0]).toMatchObject({ variable: "VF_TEST_UNSET_KEY" });
    expect(errors[3]![0]).toMatchObject({ arg: "extra_body" });
    expect(errors[8]![0]).toMatchObject({ envId: "someone/thing@1.0.0", notInstalled: true });
  });

  it("still catch a flag in the check itself", () => {
    for (const message of [
      "pass -k with",
      "drop -x",
      "(-c)",
      "use --api-base-url",
      "run vf env install a/b",
    ]) {
      expect(message).toMatch(HOST_WORDS);
    }
    for (const message of ["export KEY=...", "-1 for all", "ends in /v1", "set max_turns", 'e.g. {"a": 1}']) {
      expect(message).not.toMatch(HOST_WORDS);
    }
  });
});

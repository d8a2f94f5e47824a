/**
 * An environment served elsewhere, as a local `Environment` for hosts that need its rows and id
 * (`vf train` with `[[env]] address`): its datasets are the server's rows (vf's `tasks` method);
 * its rollouts run in the server through `remoteRunner`, never here.
 */
import { Dataset, Environment, type RolloutInput, type RolloutState, UserError } from "@vf-rl/core";
import { fromTaskData } from "../wire/task-data.ts";
import type { EnvClient } from "./env-client.ts";

export class ServedEnvironment extends Environment {
  /** The id the server names its environment by (set by `connect`, from `tasks`). */
  envId = "";

  constructor(readonly client: EnvClient) {
    const rows = (split: "train" | "eval") => async () => {
      const { tasks } = await client.tasks({ split });
      return Dataset.fromRows(
        tasks.map((task) => {
          const { input } = fromTaskData(task);
          return {
            prompt: input.prompt,
            answer: input.answer,
            info: input.info,
            task: input.task,
            example_id: input.exampleId,
          };
        }),
      );
    };
    super({ dataset: rows("train"), evalDataset: rows("eval") });
  }

  /** Connects to the server's environment, once the server answers, and learns its id. */
  static async connect(client: EnvClient): Promise<ServedEnvironment> {
    await client.waitForStartup();
    const env = new ServedEnvironment(client);
    env.envId = (await client.tasks({ split: "train", numExamples: 1 })).envId;
    return env;
  }

  rollout(_input: RolloutInput): Promise<RolloutState> {
    return Promise.reject(
      new UserError(
        `environment "${this.envId}" runs in the env server at ${this.client.address}: run it through remoteRunner (generate's runUnit)`,
      ),
    );
  }
}

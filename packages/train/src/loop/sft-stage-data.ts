/**
 * What the [sft] stage trains on: the paths of its `data` (conversations, prompt + completion rows,
 * or saved rollouts filtered by min_reward / best_of_group), or else the training rows of the run's
 * [[env]] environments, read as the RL stage reads them (num_examples, the run's seed), each with
 * its reference completion.
 */
import type { ResolvedTrainConfig } from "../config/load-train-config.ts";
import { type SftStageConfig, sftDataPaths } from "../config/sft-stage-config.ts";
import { envConversations, loadSftConversations, type SftConversations } from "../supervised/sft-sources.ts";
import { loadRunEnvironments } from "./open-run.ts";

/** The stage's conversations, and held-out ones where a source has its own (an eval split). */
export async function sftStageConversations(
  config: ResolvedTrainConfig,
  sft: SftStageConfig,
): Promise<SftConversations> {
  const paths = sftDataPaths(sft);
  if (paths.length > 0) {
    return loadSftConversations({
      dataFiles: paths,
      evalFiles: [],
      envIds: [],
      envArgs: {},
      filter: {
        ...(sft.min_reward !== undefined ? { minReward: sft.min_reward } : {}),
        ...(sft.best_of_group ? { bestOfGroup: true } : {}),
      },
    });
  }
  // the training environments only: the RL stage's evaluations are not the stage's business
  const { envs_E, rows_E } = await loadRunEnvironments({ ...config, eval: undefined });
  const result: SftConversations = { train: [], eval: [], notes: [] };
  try {
    for (const [e, { id, env }] of envs_E.entries()) {
      const conversations = await envConversations(id, env, rows_E[e]!);
      result.train.push(...conversations.train);
      result.eval.push(...conversations.eval);
      result.notes.push(...conversations.notes);
    }
  } finally {
    for (const { env } of envs_E) await env.teardown();
  }
  return result;
}

/**
 * alphabet-sort: a scripted user gives first names over several turns; after each turn the model
 * replies with every name so far, sorted, one per line, inside `<alphabetical_sorted>` tags.
 * Reward: `sort_reward` (weight 1), per-turn list similarity raised to a power, averaged over turns.
 * Metric: `exact_turns` (weight 0), the share of turns answered exactly right.
 */
import { Dataset, defineEnvironment, EnvArgsError, Rubric } from "@vf-rl/core";
import { z } from "zod";
import { AlphabetSortEnv, type SortData } from "./alphabet-sort-env.ts";
import { exactTurns, sortReward } from "./sort-reward.ts";
import {
  drawTurnNames,
  expectedLists,
  loadNames,
  referenceConversation,
  TAG,
  turnNamesOf,
  userPrompt,
} from "./sort-task.ts";

export { AlphabetSortEnv, type SortData } from "./alphabet-sort-env.ts";
export {
  exactTurns,
  listSimilarities,
  type SortRewardOptions,
  sortReward,
  turnScore,
} from "./sort-reward.ts";
export {
  drawTurnNames,
  expectedLists,
  formatList,
  loadNames,
  referenceConversation,
  type SortTaskShape,
  sortNames,
  TAG,
  TurnNames,
  turnNamesOf,
  userPrompt,
} from "./sort-task.ts";

/** The system prompt of every row. */
export const SYSTEM_PROMPT = `Sort the names alphabetically. Each time names arrive, reply with all the names so far, sorted, one per line, inside <${TAG}> tags.`;

const Count = z.number().int().positive();

/** The arguments of `loadEnvironment` (`vf eval alphabet-sort -a '{...}'`). */
export const AlphabetSortArgs = z
  .object({
    /** Fewest turns of a conversation. */
    minTurns: Count.default(3),
    /** Most turns of a conversation; each row draws its count in minTurns..maxTurns. */
    maxTurns: Count.default(4),
    /** Names arriving per turn: a count, or a range each turn draws from. */
    namesPerTurn: z.union([Count, z.object({ min: Count, max: Count }).strict()]).default({ min: 1, max: 3 }),
    /** Power the per-turn similarity is raised to. */
    similarityPower: z.number().positive().default(4),
    /** Raise each turn's similarity to the power, then average (true); or average, then raise (false). */
    powerPerTurn: z.boolean().default(true),
    /** Training conversations. */
    numTrain: z.number().int().nonnegative().default(1000),
    /** Evaluation conversations, drawn by their own rows' seeds, apart from the training ones. */
    numEval: Count.default(100),
    /** Seed of every row's draw. */
    seed: z.number().int().default(0),
  })
  .strict()
  .refine((args) => args.minTurns <= args.maxTurns, {
    message: "minTurns must not exceed maxTurns",
    path: ["minTurns"],
  })
  .refine((args) => typeof args.namesPerTurn === "number" || args.namesPerTurn.min <= args.namesPerTurn.max, {
    message: "min must not exceed max",
    path: ["namesPerTurn", "min"],
  });
export type AlphabetSortArgs = z.infer<typeof AlphabetSortArgs>;

/** Loads the alphabet-sort environment; see `AlphabetSortArgs` for the arguments. */
export const loadEnvironment = defineEnvironment({
  args: AlphabetSortArgs,
  load: async (args) => {
    const names = await loadNames();
    const perTurn =
      typeof args.namesPerTurn === "number"
        ? { min: args.namesPerTurn, max: args.namesPerTurn }
        : args.namesPerTurn;
    const shape = {
      minTurns: args.minTurns,
      maxTurns: args.maxTurns,
      minNames: perTurn.min,
      maxNames: perTurn.max,
    };
    if (shape.maxTurns * shape.maxNames > names.length) {
      throw new EnvArgsError("", [
        `maxTurns × namesPerTurn: up to ${shape.maxTurns * shape.maxNames} names per conversation, but the list has ${names.length}; lower one of them`,
      ]);
    }
    const rows = (first: number, count: number) =>
      Dataset.fromRows(
        Array.from({ length: count }, (_, i) => {
          const turns = drawTurnNames(names, shape, args.seed, first + i);
          return {
            example_id: first + i,
            question: userPrompt(turns, 0),
            answer: expectedLists(turns).at(-1)!.join("\n"),
            info: { turn_names: turns },
          };
        }),
        { source: "alphabet-sort rows" },
      );
    const options = { similarityPower: args.similarityPower, powerPerTurn: args.powerPerTurn };
    const expected = (info: Record<string, unknown>) => expectedLists(turnNamesOf(info));
    return new AlphabetSortEnv({
      evalDataset: rows(0, args.numEval),
      dataset: rows(args.numEval, args.numTrain),
      systemPrompt: SYSTEM_PROMPT,
      maxTurns: args.maxTurns,
      rubric: new Rubric<SortData>()
        .addReward(({ completion, info }) => sortReward(completion, expected(info), options), {
          name: "sort_reward",
        })
        .addMetric(({ completion, info }) => exactTurns(completion, expected(info)), { name: "exact_turns" }),
      referenceCompletion: (input) => referenceConversation(turnNamesOf(input.info)),
    });
  },
});

/**
 * Where supervised fine-tuning gets its conversations: JSONL files (`{"messages": [...]}` per
 * line), saved rollouts (run folders and results files, filtered by reward: sft-rollouts.ts), and
 * environments' datasets, each row's prompt followed by the environment's reference completion
 * (how a perfect model would answer it).
 */
import { type Environment, type RolloutInput, UserError } from "@vf-rl/core";
import { issueLines } from "@vf-rl/core/config";
import { loadEnvironmentById } from "@vf-rl/core/loading";
import type { SftFilter } from "@vf-rl/core/results";
import type { ChatMessageInput } from "@vf-rl/engine";
import { readConversations } from "./sft-data.ts";
import { modelMessages, SftConversation } from "./sft-example.ts";
import { readDataSource } from "./sft-rollouts.ts";

/** Conversations for training and, when a source has them, held-out ones for the eval loss. */
export interface SftConversations {
  train: ChatMessageInput[][];
  eval: ChatMessageInput[][];
  /** One line per source, for the user. */
  notes: string[];
}

/** Options of `loadSftConversations`. */
export interface SftSourceOptions {
  dataFiles: string[];
  evalFiles: string[];
  envIds: string[];
  envArgs: Record<string, unknown>;
  /** Rows taken from each environment's training split (default: all). */
  numExamples?: number;
  /** Which saved rollouts of `dataFiles` to keep. */
  filter?: SftFilter;
}

/** Reads every source; throws when they hold nothing to train on. */
export async function loadSftConversations(options: SftSourceOptions): Promise<SftConversations> {
  const result: SftConversations = { train: [], eval: [], notes: [] };
  for (const path of options.dataFiles) {
    const source = await readDataSource(path, options.filter ?? {});
    result.train.push(...source.conversations);
    result.notes.push(source.note);
  }
  for (const path of options.evalFiles) {
    const conversations = await readConversations(path);
    result.eval.push(...conversations.map(modelMessages));
    result.notes.push(`${path}: ${conversations.length} eval conversations`);
  }
  for (const id of options.envIds) {
    const { env } = await loadEnvironmentById(id, { args: options.envArgs });
    try {
      const train = await env.inputs({ split: "train", numExamples: options.numExamples ?? -1 });
      const conversations = await envConversations(id, env, train.inputs);
      result.train.push(...conversations.train);
      result.eval.push(...conversations.eval);
      result.notes.push(...conversations.notes);
    } finally {
      await env.teardown();
    }
  }
  if (result.train.length === 0) {
    throw new UserError(
      "no training data: the sources hold no conversation to train on: give conversation files, saved rollouts or environments, or lower the minimum reward",
    );
  }
  return result;
}

/**
 * An environment's training rows as conversations (each row's prompt and reference completion),
 * with those of its eval split when it has one of its own, and a note saying how many.
 */
export async function envConversations(
  id: string,
  env: Environment,
  rows: readonly RolloutInput[],
): Promise<SftConversations> {
  const train = rows.map((input) => envConversation(id, env, input));
  // only a real eval split: a fallback to the training rows would measure memorisation
  const evalRows = await env.inputs({ split: "eval", numExamples: 256 });
  const own = evalRows.warnings.length === 0;
  const evalConversations = own ? evalRows.inputs.map((input) => envConversation(id, env, input)) : [];
  const evalNote = own ? `, ${evalRows.inputs.length} eval rows` : "";
  const note = `${id}: ${rows.length} training rows with reference answers${evalNote}`;
  return { train, eval: evalConversations, notes: [note] };
}

/**
 * A row's prompt and reference completion as one conversation, with the tools the environment offers
 * described as the model reads them, checked against the chat template.
 */
function envConversation(id: string, env: Environment, input: RolloutInput): ChatMessageInput[] {
  const messages = [...input.prompt, ...env.referenceCompletion(input)];
  const parsed = SftConversation.safeParse({ messages, tools: env.toolDefsFor(input) });
  if (!parsed.success) {
    throw new UserError(
      `environment "${id}" gave a row that cannot be trained on (${issueLines(parsed.error)[0]}): ` +
        "the engine's model reads text messages only, and needs a reference answer (referenceCompletion) per row",
    );
  }
  return modelMessages(parsed.data);
}

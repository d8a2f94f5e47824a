/**
 * Checks every row of an environment without a model (`vf eval validate ENV`): the split loads,
 * each row's prompt renders as chat messages, fits the model's context when a token count and a
 * limit are given, and its reference completion, run through the environment's own loop by a
 * client that replays it (reference-client.ts), scores the rubric's maximum with no scoring error.
 * A row whose reference is empty (no answer and no `referenceCompletion`) is checked up to its prompt.
 *
 * @example
 * const report = await validateEnvironment(env, { split: "eval", numExamples: 20 });
 * if (report.failures.length > 0) console.log(groupFailures(report.failures));
 */

import { buildPrompt, type Dataset } from "../datasets/index.ts";
import type { Environment } from "../envs/environment.ts";
import { ToolEnv } from "../envs/tool-env.ts";
import type { Messages } from "../messages/message.ts";
import { contentText, Messages as MessagesSchema } from "../messages/message.ts";
import type { RolloutInput } from "../rollout/rollout-state.ts";
import type { ToolDefinition } from "../tools/tool.ts";
import { maxReward } from "./max-reward.ts";
import { referenceClient } from "./reference-client.ts";
import type { ValidationFailure, ValidationReport } from "./validation-report.ts";

/** Options of `validateEnvironment`. */
export interface ValidateOptions {
  /** Default "eval" (falling back to the training rows when there is no eval split, as `vf eval` does). */
  split?: "train" | "eval";
  /** Rows to check, from the first; default all (-1). */
  numExamples?: number;
  /** A prompt's length in the model's tokens, tools included; absent: prompts are not counted. */
  countPromptTokens?: (prompt: Messages, tools: ToolDefinition[]) => number;
  /** The most tokens a prompt may have (with `countPromptTokens`). */
  maxPromptTokens?: number;
  /**
   * The reward a reference must reach; default `maxReward(env.rubric)`, the sum of the reward
   * weights, which is too high for a rubric whose rewards exclude each other (a win's bonus or a
   * loss's partial credit): give it then.
   */
  maxReward?: number;
  /** Rows checked at once; default 4. */
  concurrency?: number;
  /** Called as each row is done. */
  onRow?: (done: number, total: number) => void;
}

/** Validates `env`'s rows; see the file comment. Never throws for a row's failure: it is in the report. */
export async function validateEnvironment<Data>(
  env: Environment<Data>,
  options: ValidateOptions = {},
): Promise<ValidationReport> {
  const counting = options.countPromptTokens !== undefined && options.maxPromptTokens !== undefined;
  const report: ValidationReport = {
    checked: 0,
    referencesScored: 0,
    maxReward: options.maxReward ?? maxReward(env.rubric),
    maxPromptTokens: counting ? options.maxPromptTokens! : null,
    longestPrompt: null,
    failures: [],
  };
  let dataset: Dataset;
  try {
    dataset = (await splitOf(env, options.split ?? "eval")).take(options.numExamples ?? -1);
    if (env instanceof ToolEnv) await env.listTools();
  } catch (error) {
    report.failures.push({ kind: "load", id: "", message: messageOf(error) });
    return report;
  }
  const examples = dataset.examples;
  let next = 0;
  const worker = async () => {
    while (next < examples.length) {
      const example = examples[next++]!;
      await checkRow(env, example, options, report);
      report.checked++;
      options.onRow?.(report.checked, examples.length);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 4) }, worker));
  report.failures.sort((a, b) => Number(a.id) - Number(b.id) || a.id.localeCompare(b.id));
  return report;
}

/** The rows of `split`; an environment without an eval split is validated on its training rows. */
async function splitOf<Data>(env: Environment<Data>, split: "train" | "eval"): Promise<Dataset> {
  try {
    return await env.dataset(split);
  } catch (error) {
    // `inputs` falls back to the other split when this one is absent; so does validation.
    const other = split === "eval" ? "train" : "eval";
    try {
      return await env.dataset(other);
    } catch {
      throw error;
    }
  }
}

/** Checks one row, adding its failures to `report`. */
async function checkRow<Data>(
  env: Environment<Data>,
  example: Dataset["examples"][number],
  options: ValidateOptions,
  report: ValidationReport,
): Promise<void> {
  const id = String(example.exampleId);
  const fail = (kind: ValidationFailure["kind"], message: string) =>
    report.failures.push({ kind, id, message });
  let input: RolloutInput;
  try {
    const prompt = MessagesSchema.parse(
      buildPrompt(example, { systemPrompt: env.systemPrompt, fewShot: env.fewShot }),
    );
    if (prompt.length === 0)
      throw new Error("the prompt has no messages: give the row a question or a prompt");
    input = {
      exampleId: example.exampleId,
      rolloutIndex: 0,
      prompt,
      answer: example.answer,
      info: example.info,
      task: example.task,
    };
  } catch (error) {
    return void fail("prompt", messageOf(error));
  }
  if (options.countPromptTokens && options.maxPromptTokens !== undefined) {
    let tokens: number;
    try {
      tokens = options.countPromptTokens(input.prompt, env.toolDefsFor(input));
    } catch (error) {
      return void fail("prompt", `the prompt cannot be tokenized: ${messageOf(error)}`);
    }
    report.longestPrompt = Math.max(report.longestPrompt ?? 0, tokens);
    if (tokens > options.maxPromptTokens) {
      fail("too_long", `the prompt is ${tokens} tokens, over the limit of ${options.maxPromptTokens}`);
    }
  }
  let reference: Messages;
  try {
    reference = env.referenceCompletion(input);
  } catch (error) {
    return void fail("rollout", `referenceCompletion threw: ${messageOf(error)}`);
  }
  if (isEmpty(reference)) return;
  const state = await env.rollout(input, { client: referenceClient(reference), model: "reference" });
  if (state.error) return void fail("rollout", `${state.error.error}: ${state.error.message}`);
  await env.score([state], { independent: false });
  report.referencesScored++;
  for (const { function: name, error } of state.scoringErrors) {
    fail("scoring_error", `${name} raised on the reference: ${error.error}: ${error.message}`);
  }
  if (state.reward < report.maxReward - 1e-9) {
    const metrics = Object.entries(state.metrics)
      .map(([name, value]) => `${name} ${round(value)}`)
      .join(", ");
    fail(
      "below_max",
      `the reference scores ${round(state.reward)} of ${round(report.maxReward)} (${metrics})`,
    );
  }
}

/** A reference with nothing to say: no assistant text and no tool call (a row with no answer). */
function isEmpty(reference: Messages): boolean {
  return !reference.some(
    (m) =>
      m.role === "assistant" && (contentText(m.content).trim() !== "" || (m.tool_calls?.length ?? 0) > 0),
  );
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

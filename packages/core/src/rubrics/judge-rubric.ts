/**
 * A rubric with an LLM judge: `judge(ctx)` asks a model, through any OpenAI-compatible endpoint,
 * whether the response matches the reference answer, and caches the judge's answer per rollout (in
 * the rubric, keyed by the rollout's state) so several reward functions can read it for one call.
 *
 * @example
 * const rubric = new JudgeRubric({ client, model: "gpt-4.1-nano" });
 * rubric.addReward(async (ctx) => (await rubric.judge(ctx)).trim().toLowerCase().startsWith("yes"), {
 *   name: "judge_reward",
 * });
 */
import type { ModelClient, SamplingArgs } from "../client/model-client.ts";
import { contentText } from "../messages/message.ts";
import type { RolloutState } from "../rollout/rollout-state.ts";
import type { RewardContext } from "./reward-context.ts";
import { Rubric, type RubricOptions } from "./rubric.ts";

/** The default judge prompt; `{question}`, `{answer}` and `{response}` are filled in. */
export const DEFAULT_JUDGE_PROMPT = `You are grading an answer against a reference.

Question:
{question}

Reference answer:
{answer}

Answer to grade:
{response}

Does the answer to grade say the same thing as the reference answer? Reply with "yes" or "no" only.`;

/** Options of `JudgeRubric`: the judge's client, model and prompt. */
export interface JudgeRubricOptions<Data> extends RubricOptions<Data> {
  client: ModelClient;
  model: string;
  /** Template with {question}, {answer} and {response}; default `DEFAULT_JUDGE_PROMPT`. */
  prompt?: string;
  /** Sampling args of the judge call; default temperature 0. */
  sampling?: SamplingArgs;
}

/** Asks a judge model whether the answer matches the reference; the judge's verdict is the reward. */
export class JudgeRubric<Data = Record<string, unknown>> extends Rubric<Data> {
  readonly client: ModelClient;
  readonly model: string;
  readonly prompt: string;
  readonly sampling: SamplingArgs;
  /** The judge's answers per rollout, by judge prompt; a rollout's entry goes when its state does. */
  private readonly answers = new WeakMap<RolloutState<Data>, Record<string, string>>();

  constructor(options: JudgeRubricOptions<Data>) {
    super(options);
    this.client = options.client;
    this.model = options.model;
    this.prompt = options.prompt ?? DEFAULT_JUDGE_PROMPT;
    this.sampling = options.sampling ?? { temperature: 0 };
  }

  /**
   * The judge's answer for this rollout. The question is the last prompt message, the response is
   * the parser's answer from the completion. Asked once per rollout and prompt, then cached.
   */
  async judge(ctx: RewardContext<Data>): Promise<string> {
    const last = ctx.prompt[ctx.prompt.length - 1];
    const question = last ? contentText(last.content) : "";
    const response = ctx.parser.parseAnswer(ctx.completion) ?? "";
    const prompt = this.prompt
      .replaceAll("{question}", question)
      .replaceAll("{answer}", ctx.answer)
      .replaceAll("{response}", response);
    let answers = this.answers.get(ctx.state);
    if (answers === undefined) {
      answers = {};
      this.answers.set(ctx.state, answers);
    }
    const cached = answers[prompt];
    if (cached !== undefined) return cached;
    // Not tied to the rollout's signal: a rollout that timed out is still scored.
    const reply = await this.client.chat({
      model: this.model,
      messages: [{ role: "user", content: prompt }],
      sampling: this.sampling,
    });
    const text = contentText(reply.message.content);
    answers[prompt] = text;
    return text;
  }

  /** The judge's answers cached for this rollout, by judge prompt; empty before `judge` ran on it. */
  judgeResponses(state: RolloutState<Data>): Readonly<Record<string, string>> {
    return this.answers.get(state) ?? {};
  }
}

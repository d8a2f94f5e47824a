/**
 * A frozen teacher's logprobs of a student's tokens: each training sequence goes to the teacher's
 * server as a token-id prompt on /v1/completions with vLLM's `prompt_logprobs`, and comes back as
 * one logprob per token, prefill-scored in one pass (as prime-rl's teacher scoring, through the
 * completions route that vLLM and the engine's server both answer). `max_tokens` is 1 because vLLM
 * refuses 0; the one sampled token is discarded. The request is core's raw POST (`postJson`), whose
 * retries ask a busy teacher again, as the typed completions call has no `prompt_logprobs`.
 */
import { type OpenAIModelClient, UserError } from "@vf-rl/core";
import { z } from "zod";

/** The part of vLLM's completion answer the scorer reads. */
const PromptLogprobsAnswer = z.object({
  choices: z
    .array(
      z.object({
        /** null for the first token, then per position a map from token id to its entry. */
        prompt_logprobs: z
          .array(z.record(z.string(), z.object({ logprob: z.number() })).nullable())
          .nullish(),
      }),
    )
    .min(1),
});

/** Scores token sequences under the teacher. */
export class TeacherScorer {
  /** `client` reaches the teacher's server, which serves `model`; its owner closes it, not the scorer. */
  constructor(
    readonly client: OpenAIModelClient,
    readonly model: string,
  ) {}

  /**
   * The teacher's logprob of each token of `tokens_T` given the tokens before it; entry 0 (the
   * first token, which nothing precedes) is 0.
   */
  async score(tokens_T: readonly number[], signal?: AbortSignal): Promise<number[]> {
    const where = `the teacher at ${this.client.baseUrl}`;
    const answer = await this.client.postJson(
      "/completions",
      { model: this.model, prompt: tokens_T, max_tokens: 1, temperature: 1, prompt_logprobs: 0 },
      signal ? { signal } : {},
    );
    if (answer.type === "refusal") {
      throw new UserError(
        `${where} refused to score a sequence of ${tokens_T.length} tokens (${answer.status}: ${answer.message}): ` +
          "the teacher needs the student's token ids and a context at least as long as the student's sequences",
      );
    }
    const parsed = PromptLogprobsAnswer.safeParse(answer.body);
    const entries_T = parsed.success ? parsed.data.choices[0]!.prompt_logprobs : undefined;
    if (!entries_T || entries_T.length !== tokens_T.length) {
      throw new UserError(
        `${where} returned no prompt_logprobs for a token-id prompt of ${tokens_T.length} tokens: ` +
          "serve the teacher with vLLM or vf serve, which answer prompt_logprobs on /v1/completions",
      );
    }
    return tokens_T.map((token, t) => {
      if (t === 0) return 0;
      const logprob = entries_T[t]?.[String(token)]?.logprob;
      if (logprob === undefined) {
        throw new UserError(
          `${where} scored position ${t} without its own token ${token}: serve the teacher with vLLM or vf serve`,
        );
      }
      return logprob;
    });
  }
}

/**
 * Sampling args as request-body fields, shared by every client: `extra_body` merged into the top
 * level as the Python SDKs do, `stream` refused (vf reads whole responses), and the few renames an
 * API needs, so that max_tokens, temperature and the rest mean the same whatever the API.
 */
import { SamplingArgsError } from "../errors.ts";
import type { SamplingArgs } from "./model-client.ts";

/** The sampling args as body fields: unknown keys (top_k, min_p, ...) go to the server untouched. */
export function samplingFields(sampling: SamplingArgs): Record<string, unknown> {
  const { extra_body: extraBody, ...fields } = sampling;
  if (fields.stream !== undefined && fields.stream !== false) {
    throw new SamplingArgsError(
      'sampling arg "stream" is not supported: vf reads whole responses; remove it',
      "stream",
    );
  }
  if (
    extraBody !== undefined &&
    (typeof extraBody !== "object" || extraBody === null || Array.isArray(extraBody))
  ) {
    throw new SamplingArgsError(
      `sampling arg "extra_body" must be an object of extra request fields, got ${JSON.stringify(extraBody)}: fix the sampling args`,
      "extra_body",
    );
  }
  return { ...fields, ...(extraBody as Record<string, unknown> | undefined) };
}

/**
 * Moves the token limit to the one field the API reads (`max_output_tokens` for Responses,
 * `max_tokens` for completions and Anthropic): vf's max tokens set `max_tokens`, OpenAI's newer name is
 * `max_completion_tokens`, and an explicit `target` wins over both.
 */
export function renameTokenLimit(fields: Record<string, unknown>, target: string): void {
  const limit = fields[target] ?? fields.max_tokens ?? fields.max_completion_tokens;
  delete fields.max_tokens;
  delete fields.max_completion_tokens;
  if (limit !== undefined && limit !== null) fields[target] = limit;
}

/** Refuses `n` other than 1: every API answers one completion per call here. */
export function refuseSeveralChoices(fields: Record<string, unknown>, api: string): void {
  if (fields.n !== undefined && fields.n !== null && fields.n !== 1) {
    throw new SamplingArgsError(
      `sampling arg "n" is ${JSON.stringify(fields.n)}, but vf asks the ${api} for one answer per call: remove "n", and raise the rollouts per example for more rollouts`,
      "n",
    );
  }
  delete fields.n;
}

/**
 * What the completion routes share: the served model and its scheduler, the model check, and the
 * generation of a request's n choices (all or nothing: when one fails, the others are cancelled).
 */
import type { ModelConfig } from "../config.ts";
import type { TokenEvent } from "../sampling/batch-sampler.ts";
import type { SamplingParams } from "../trainer/protocol.ts";
import { modelNotFound } from "./api-error.ts";
import type { Generated, GenerationScheduler } from "./generation-scheduler.ts";
import type { SamplingDefaults } from "./request-sampling.ts";

/** The served model, as the routes see it. */
export interface RouteContext {
  scheduler: GenerationScheduler;
  config: ModelConfig;
  /** The name requests must give as `model`. */
  modelName: string;
  defaults: SamplingDefaults;
}

/** Throws 404 unless `model` is the served model's name. */
export function checkModel(model: string, ctx: RouteContext): void {
  if (model !== ctx.modelName) throw modelNotFound(model, ctx.modelName);
}

/** Options of `generateChoices`. */
export interface ChoiceOptions {
  topLogprobs: number;
  /** Aborts every choice (the client went away). */
  signal: AbortSignal;
  /** Called for every token of choice `index` as it is sampled. */
  onToken?: (index: number, event: TokenEvent) => void;
}

/** Generates `n` completions of one prompt; choice j draws from stream `streamOffset + j` of the seed. */
export async function generateChoices(
  ctx: RouteContext,
  prompt: readonly number[],
  params: SamplingParams,
  n: number,
  options: ChoiceOptions,
  streamOffset = 0,
): Promise<Generated[]> {
  const controller = new AbortController();
  const abort = (): void => controller.abort();
  options.signal.addEventListener("abort", abort, { once: true });
  try {
    const choices = Array.from({ length: n }, (_, j) =>
      ctx.scheduler.generate({
        prompt,
        params,
        stream: streamOffset + j,
        topLogprobs: options.topLogprobs,
        signal: controller.signal,
        ...(options.onToken ? { onToken: (event: TokenEvent) => options.onToken!(j, event) } : {}),
      }),
    );
    // the first failure cancels the rest and is the one reported; every promise is still awaited
    let firstError: unknown = null;
    for (const choice of choices) {
      choice.catch((error: unknown) => {
        firstError ??= error;
        abort();
      });
    }
    const settled = await Promise.allSettled(choices);
    if (firstError !== null) throw firstError;
    return settled.map((s) => (s as PromiseFulfilledResult<Generated>).value);
  } finally {
    options.signal.removeEventListener("abort", abort);
  }
}

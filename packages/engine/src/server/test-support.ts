/**
 * Support for the server's tests: small models (a random one with peaked predictions, and one
 * trained until it repeats given completions word for word at temperature 0), and the typing of
 * vLLM's extra fields for the openai package. Not part of the public API.
 */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type OpenAI from "openai";
import { parseModelConfig } from "../config.ts";
import { Transformer } from "../model.ts";
import { initParameters } from "../params.ts";
import { tokenizer } from "../tokenizer/tokenizer.ts";
import { createLocalTrainer } from "../trainer/local-trainer.ts";

/** The architecture of every test model: tiny, with room for a prompt that lists tools. */
export const TEST_CONFIG = parseModelConfig({
  vocabSize: tokenizer.vocabSize,
  dModel: 32,
  nLayers: 2,
  nHeads: 4,
  dFF: 64,
  maxSeqLen: 512,
});

/** A random model whose predictions are peaked, so samples vary but are not uniform noise. */
export function randomModel(seed = 1): Transformer {
  const model = new Transformer(TEST_CONFIG);
  initParameters(TEST_CONFIG, model.params, seed);
  for (let i = 0; i < model.params.length; i++) model.params[i] = model.params[i]! * 8;
  return model;
}

/** A prompt and the completion a trained model must give after it. */
export interface Lesson {
  prompt: number[];
  completion: number[];
}

/**
 * Trains a fresh model on `lessons` until it repeats each completion at temperature 0, saves it,
 * and returns the checkpoint directory.
 */
export async function memorizedCheckpoint(lessons: readonly Lesson[]): Promise<string> {
  const trainer = await createLocalTrainer({
    config: TEST_CONFIG,
    seed: 7,
    threads: Math.min(2, lessons.length),
  });
  const batch = lessons.map(({ prompt, completion }) => ({
    tokens: [...prompt, ...completion],
    mask: [...prompt.map(() => 0 as const), ...completion.map(() => 1 as const)],
  }));
  for (let step = 0; step < 600; step++) {
    const { loss } = await trainer.forwardBackward(batch, { type: "cross_entropy" });
    await trainer.optimStep({ learningRate: 1e-2, gradClipNorm: 1 });
    if (loss < 0.02) break; // every token's probability is near 1: temperature 0 repeats them
  }
  const dir = join(await mkdtemp(join(tmpdir(), "vf-engine-test-")), "memorized");
  await trainer.saveWeights(dir);
  await trainer.close();
  return dir;
}

/** vLLM's request fields, which the openai package's types do not know. */
export interface VllmRequestFields {
  ignore_eos?: boolean;
  return_token_ids?: boolean;
  top_k?: number;
}

/** A chat request with vLLM's fields. */
export type VllmChatRequest = OpenAI.ChatCompletionCreateParamsNonStreaming & VllmRequestFields;

/** A chat completion with vLLM's token fields. */
export type VllmChatCompletion = OpenAI.ChatCompletion & {
  prompt_token_ids?: number[];
  choices: Array<
    OpenAI.ChatCompletion.Choice & { token_ids?: number[]; stop_reason?: string | number | null }
  >;
};

/** Sends a chat request with vLLM's fields through the openai package. */
export async function vllmChat(client: OpenAI, request: VllmChatRequest): Promise<VllmChatCompletion> {
  return (await client.chat.completions.create(request)) as VllmChatCompletion;
}

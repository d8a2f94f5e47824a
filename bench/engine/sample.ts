/**
 * Sampling throughput of the engine (KV cache, batched decoding) on the reference model shape
 * (d_model 64, 2 layers, 4 heads, byte vocabulary), for one stream and for many streams stepped
 * together. Each stream has a prompt of its own (streams of one prompt would share its prefill).
 * One sampler per stream count is reused, as a server keeps one; a figure is the tokens per second
 * of runs repeated for at least half a second, the best of three. Not a test: it prints figures.
 *
 *   npx tsx bench/engine/sample.ts [--tokens 128] [--streams 32]
 */
import { parseArgs } from "node:util";
import {
  BatchSampler,
  initParameters,
  parseModelConfig,
  renderChat,
  SamplingParams,
  sampleBatch,
  Transformer,
} from "@vf-rl/engine";
import { distinctPrompts } from "./distinct-prompts.ts";

const { values } = parseArgs({
  options: { tokens: { type: "string", default: "128" }, streams: { type: "string", default: "32" } },
});
const maxTokens = Number(values.tokens);
const streams = Number(values.streams);

const config = parseModelConfig({
  vocabSize: 263,
  dModel: 64,
  nLayers: 2,
  nHeads: 4,
  dFF: 256,
  maxSeqLen: 256,
});
const model = new Transformer(config);
initParameters(config, model.params, 0);
const prompt = renderChat([{ role: "user", content: "Reverse this text: hello world" }], {
  addGenerationPrompt: true,
});
// ignoreEos: every stream generates exactly maxTokens, so the figures do not depend on the weights
const params = SamplingParams.parse({ maxTokens, temperature: 1, ignoreEos: true });

const samplers = new Map<number, BatchSampler>();
let round = 0;

/** Tokens per second of n streams, over runs repeated for at least half a second. */
function run(n: number): number {
  let sampler = samplers.get(n);
  if (sampler === undefined) {
    sampler = new BatchSampler(model);
    samplers.set(n, sampler);
  }
  const t0 = performance.now();
  let tokens = 0;
  while (performance.now() - t0 < 500) {
    round += 1;
    const samples = sampleBatch(sampler, distinctPrompts(prompt, n, round), 1, params);
    tokens += samples.reduce((sum, s) => sum + s[0]!.tokens.length, 0);
  }
  return tokens / ((performance.now() - t0) / 1000);
}

/** Best of three: the figure least disturbed by other processes. */
function best(n: number): number {
  return Math.max(run(n), run(n), run(n));
}

run(streams); // warm up the JIT
run(1);
console.log(
  `model ${JSON.stringify(config)}, prompt ${prompt.length} tokens, ${maxTokens} new tokens per stream`,
);
console.log(`1 stream    ${best(1).toFixed(0)} tokens/s (best of 3)`);
console.log(
  `${streams} streams  ${best(streams).toFixed(0)} tokens/s (best of 3, all streams stepped together)`,
);

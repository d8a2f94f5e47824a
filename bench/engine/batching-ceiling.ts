/**
 * How much can stepping many streams together gain on this machine? Batching saves only on the
 * linear layers (a weight read once serves every row); attention over each sequence's own cache,
 * the SwiGLU's and softmax's exponentials and the sampling of each row cost the same per token at
 * any batch size. This bench measures, in one thread, for a model's shapes (the shipped one unless
 * `--model` names another):
 *
 *   products   the decode step's linear layers alone (the same kernel, gemmNT, over the same
 *              shapes: qkv, wo, w13, w2 of each layer and the logits), per token, at 1 row and at
 *              `--streams` rows;
 *   step       a whole decode step (BatchSampler: products, attention, SwiGLU, sampling), per token,
 *              one stream alone and `--streams` streams stepped together;
 *
 * and prints the most a server with `--cores` sampling threads can reach over one stream:
 * cores × step(1) / step(n), and the ceiling if everything but the products were free:
 * cores × products(1) / products(n). Not a test: it prints figures.
 *
 *   npx tsx bench/engine/batching-ceiling.ts [--streams 64] [--cores 2] [--model DIR]
 */
import { availableParallelism } from "node:os";
import { parseArgs } from "node:util";
import {
  BASE_MODEL_DIR,
  BatchSampler,
  loadCheckpoint,
  renderChat,
  SamplingParams,
  sampleBatch,
  Transformer,
} from "@vf-rl/engine";
import { WasmHeap } from "../../packages/engine/src/kernels/wasm-heap.ts";
import { distinctPrompts } from "./distinct-prompts.ts";

const { values } = parseArgs({
  options: {
    streams: { type: "string", default: "64" },
    cores: { type: "string", default: String(Math.min(2, availableParallelism())) },
    model: { type: "string", default: BASE_MODEL_DIR },
  },
});
const streams = Number(values.streams);
const cores = Number(values.cores);
const { config, params } = await loadCheckpoint(values.model);
const { dModel: C, dFF: F, vocabSize: V, nLayers: L } = config;

/** Microseconds per row of the decode step's products over `rows` rows, best of five half-second runs. */
function productsPerToken(rows: number): number {
  // each weight in its own region, as in the model: a model whose weights outgrow the caches pays
  // for reading them at every step, and that is what batching saves
  const shapes: [number, number][] = []; // (Q, K): out (rows, Q) = in (rows, K) · weight (Q, K)ᵀ
  for (let l = 0; l < L; l++) shapes.push([3 * C, C], [C, C], [2 * F, C], [C, F]);
  shapes.push([V, C]);
  const weights: number[] = [];
  let next = 0;
  for (const [Q, K] of shapes) {
    weights.push(next);
    next += Q * K;
  }
  const widest = Math.max(3 * C, 2 * F, V);
  const input = next;
  const output = input + rows * Math.max(C, F);
  const heap = new WasmHeap({ floats: output + rows * widest });
  heap.floats.fill(0.01);
  let best = Infinity;
  for (let run = 0; run < 5; run++) {
    const started = performance.now();
    let steps = 0;
    while (performance.now() - started < 500) {
      shapes.forEach(([Q, K], i) => {
        heap.gemmNT(output, input, weights[i]!, rows, Q, K, false);
      });
      steps += 1;
    }
    best = Math.min(best, ((performance.now() - started) * 1000) / (steps * rows));
  }
  return best;
}

const model = new Transformer(config, { params });
const prompt = renderChat([{ role: "user", content: "Reverse this text: the quick brown fox" }], {
  addGenerationPrompt: true,
});
const sampling = SamplingParams.parse({ maxTokens: 128, temperature: 1, ignoreEos: true });
let round = 0;

/** Microseconds per token of whole decode steps of n streams, best of three runs of 1.5 s or more. */
function stepPerToken(n: number): number {
  const sampler = new BatchSampler(model);
  let best = Infinity;
  for (let run = 0; run < 4; run++) {
    const started = performance.now();
    let tokens = 0;
    // 64 streams take a third of a second a call: runs of a few calls at least
    for (let calls = 0; calls < 3 || performance.now() - started < 1500; calls++) {
      round += 1;
      const prompts = distinctPrompts(prompt, n, round);
      tokens += sampleBatch(sampler, prompts, 1, sampling).reduce((sum, s) => sum + s[0]!.tokens.length, 0);
    }
    // the first run warms the JIT up
    if (run > 0) best = Math.min(best, ((performance.now() - started) * 1000) / tokens);
  }
  return best;
}

const p1 = productsPerToken(1);
const pn = productsPerToken(streams);
const s1 = stepPerToken(1);
const sn = stepPerToken(streams);
const row = (name: string, one: number, many: number): string =>
  `${name.padEnd(30)} ${one.toFixed(1).padStart(8)} ${many.toFixed(1).padStart(10)} ${(one / many).toFixed(2).padStart(8)}x`;
console.log(`model ${values.model} (${JSON.stringify(config)}), one thread, µs a token`);
console.log(
  `${"".padEnd(30)} ${"1 stream".padStart(8)} ${`${streams} streams`.padStart(10)} ${"gain".padStart(9)}`,
);
console.log(row("products (linear layers)", p1, pn));
console.log(row("the rest (attention, SwiGLU, …)", s1 - p1, sn - pn));
console.log(row("whole decode step", s1, sn));
console.log(
  `on ${cores} cores, ${streams} streams reach at most ${((cores * s1) / sn).toFixed(2)}x one stream` +
    ` (${((cores * p1) / pn).toFixed(2)}x if all but the products were free)`,
);

import { describe, expect, it } from "vitest";
import { parseModelConfig } from "../config.ts";
import { SamplingError, SequenceTooLongError } from "../errors.ts";
import { Transformer } from "../model.ts";
import { packSequences } from "../packed-batch.ts";
import { initParameters } from "../params.ts";
import { SamplingParams, type SamplingParamsInput } from "../trainer/protocol.ts";
import { BatchSampler, sampleBatch } from "./batch-sampler.ts";
import { CachedForward } from "./cached-forward.ts";
import type { StepForward } from "./step-forward.ts";
import { WasmCachedForward } from "./wasm-cached-forward.ts";

const config = parseModelConfig({
  vocabSize: 263,
  dModel: 32,
  nLayers: 2,
  nHeads: 4,
  dFF: 64,
  maxSeqLen: 24,
});

function model(): Transformer {
  const m = new Transformer(config);
  initParameters(config, m.params, 3);
  for (let i = 0; i < m.params.length; i++) m.params[i] = m.params[i]! * 20; // peaked, varied predictions
  return m;
}

const params = (p: SamplingParamsInput = {}): SamplingParams => SamplingParams.parse({ maxTokens: 12, ...p });
const prompts = [
  [256, 260, 104, 105, 257, 261],
  [256, 72],
  [256, 260, 1, 2, 3, 4, 5, 6, 7],
];

const forwards: [string, (m: Transformer) => StepForward][] = [
  ["plain", (m) => new CachedForward(m)],
  ["WebAssembly", (m) => new WasmCachedForward(m)],
];

describe.each(forwards)("the %s cached forward pass", (_, makeForward) => {
  it("gives the training forward's logits bit for bit, whether prefilled at once, in chunks or token by token", () => {
    const m = model();
    const seq = [256, 260, 104, 101, 108, 108, 111, 257, 261, 119];
    const full = m.forward(packSequences([seq], [...seq.keys()])).slice(); // logits of every row
    const V = config.vocabSize;
    for (const chunks of [[seq.length], [4, 3, 3], Array(seq.length).fill(1)]) {
      const cached = makeForward(m);
      const cache = cached.openCache(seq.length);
      let at = 0;
      for (const n of chunks) {
        const logits = cached.step([cache], [seq.slice(at, at + n)]);
        at += n;
        expect(logits).toEqual(full.subarray((at - 1) * V, at * V));
      }
    }
  });

  it("copies a cache's prefix into another as running those tokens would fill it", () => {
    const m = model();
    const seq = [256, 260, 104, 101, 108, 108, 111, 257];
    const V = config.vocabSize;
    const full = m.forward(packSequences([seq], [seq.length - 1])).slice();
    const cached = makeForward(m);
    const donor = cached.openCache(seq.length);
    cached.step([donor], [seq.slice(0, 6)]);
    const copy = cached.openCache(seq.length);
    cached.copyPrefix(donor, copy, 5);
    expect(copy.length).toBe(5);
    expect(cached.step([copy], [seq.slice(5)])).toEqual(full.subarray(0, V));
    expect(() => cached.copyPrefix(donor, copy, 7)).toThrow(/cannot copy 7 positions/);
  });

  it("gives each sequence of a batched step the logits it gets alone, and greedy decoding the same tokens", () => {
    const m = model();
    const V = config.vocabSize;
    const argmax = (row: ArrayLike<number>): number => {
      let best = 0;
      for (let i = 1; i < row.length; i++) if (row[i]! > row[best]!) best = i;
      return best;
    };
    /** Greedy decoding of `prompts` for 8 tokens, stepped together: every step's logits and the tokens. */
    const decode = (batch: number[][]): { logits: number[][][]; tokens: number[][] } => {
      const forward = makeForward(m);
      const caches = batch.map((p) => forward.openCache(p.length + 8));
      let pending = batch.map((p) => [...p]);
      const logits: number[][][] = batch.map(() => []);
      const tokens: number[][] = batch.map(() => []);
      for (let t = 0; t < 8; t++) {
        const out = forward.step(caches, pending);
        pending = batch.map((_, s) => {
          const row = out.subarray(s * V, (s + 1) * V);
          logits[s]!.push([...row]);
          tokens[s]!.push(argmax(row));
          return [argmax(row)];
        });
      }
      return { logits, tokens };
    };
    const together = decode(prompts);
    prompts.forEach((prompt, s) => {
      const alone = decode([prompt]);
      expect(together.logits[s]).toEqual(alone.logits[0]); // bit for bit
      expect(together.tokens[s]).toEqual(alone.tokens[0]);
    });
  });
});

describe("the WebAssembly cached forward pass", () => {
  it("agrees with the plain one bit for bit on a long prefill and caches that are reused", () => {
    const long = { ...config, maxSeqLen: 700 }; // over one chunk of 512 rows
    const m = new Transformer(long);
    initParameters(long, m.params, 4);
    const prompt = Array.from({ length: 600 }, (_, i) => (i * 7) % 256);
    const plain = new CachedForward(m);
    const fast = new WasmCachedForward(m);
    for (let round = 0; round < 2; round++) {
      // round 1 opens its caches in the slots round 0 gave back
      const plainCaches = [plain.openCache(610), plain.openCache(20)];
      const fastCaches = [fast.openCache(610), fast.openCache(20)];
      const steps = [
        [prompt, [256, 72]],
        [[97], [98]],
        [[99], [100]],
      ];
      for (const tokens of steps) {
        expect(fast.step(fastCaches, tokens)).toEqual(plain.step(plainCaches, tokens));
      }
      for (const cache of fastCaches) fast.closeCache(cache);
    }
  });

  it("steps more sequences than one pass holds, in several passes", () => {
    const m = model();
    const plain = new CachedForward(m);
    const fast = new WasmCachedForward(m);
    const tokens = Array.from({ length: 300 }, (_, s) => [256, s % 256]); // 300 > 256 outputs per pass
    expect(
      fast.step(
        tokens.map(() => fast.openCache(2)),
        tokens,
      ),
    ).toEqual(
      plain.step(
        tokens.map(() => plain.openCache(2)),
        tokens,
      ),
    );
  });

  it("reads the weights anew when it starts from idle, never in the middle of a sequence", () => {
    const m = model();
    const fast = new WasmCachedForward(m);
    const oldLogits = m.forward(packSequences([[256, 72, 97]], [1, 2])).slice(); // rows 1 and 2
    const cache = fast.openCache(4);
    fast.step([cache], [[256, 72]]);
    for (let i = 0; i < m.params.length; i++) m.params[i] = m.params[i]! * 0.5;
    const newLogits = m.forward(packSequences([[256, 72]], [1])).slice();
    // the open sequence goes on with the weights it started with
    expect(fast.step([cache], [[97]])).toEqual(oldLogits.subarray(config.vocabSize));
    fast.closeCache(cache);
    // the next one, opened from idle, reads the new weights
    expect(fast.step([fast.openCache(4)], [[256, 72]])).toEqual(newLogits);
  });
});

describe("the batch sampler", () => {
  it("gives a sequence the same tokens alone or batched with others", () => {
    const m = model();
    const together = sampleBatch(new BatchSampler(m), prompts, 2, params());
    prompts.forEach((prompt, i) => {
      const alone = sampleBatch(new BatchSampler(m), [prompt], 2, params());
      expect(alone[0]).toEqual(together[i]);
    });
  });

  it("reproduces a run from its seed, and draws differently with another seed", () => {
    const m = model();
    const a = sampleBatch(new BatchSampler(m), prompts, 1, params({ seed: 5 }));
    const b = sampleBatch(new BatchSampler(m), prompts, 1, params({ seed: 5 }));
    const c = sampleBatch(new BatchSampler(m), prompts, 1, params({ seed: 6 }));
    expect(b).toEqual(a);
    expect(c.map((s) => s[0]!.tokens)).not.toEqual(a.map((s) => s[0]!.tokens));
  });

  it("lets sequences join while others are running", () => {
    const m = model();
    const sampler = new BatchSampler(m);
    const first = sampler.add(prompts[0]!, params({ ignoreEos: true }));
    sampler.step();
    sampler.step();
    const second = sampler.add(prompts[1]!, params({ ignoreEos: true }));
    while (sampler.active > 0) sampler.step();
    const expected = sampleBatch(
      new BatchSampler(m),
      [prompts[0]!, prompts[1]!],
      1,
      params({ ignoreEos: true }),
    );
    expect(sampler.take(first)).toEqual(expected[0]![0]);
    expect(sampler.take(second)).toEqual(expected[1]![0]);
  });

  it("runs a prompt shared by several samples once, and gives each sample the tokens it gets alone", () => {
    const m = model();
    const prompt = prompts[2]!;
    const sampler = new BatchSampler(m);
    const [shared] = sampleBatch(sampler, [prompt], 4, params({ ignoreEos: true }));
    expect(sampler.promptTokens).toEqual({ run: prompt.length, reused: 3 * prompt.length });
    shared!.forEach((sample, j) => {
      const alone = new BatchSampler(m);
      const id = alone.add(prompt, params({ ignoreEos: true }), { stream: j });
      while (alone.active > 0) alone.step();
      expect(alone.take(id)).toEqual(sample);
    });
  });

  it("copies a prompt that a running sequence holds, and runs only its last token", () => {
    const m = model();
    const prompt = prompts[2]!;
    const sampler = new BatchSampler(m);
    const first = sampler.add(prompt, params({ ignoreEos: true }));
    sampler.step();
    sampler.step();
    const second = sampler.add(prompt, params({ ignoreEos: true }), { stream: 1 });
    while (sampler.active > 0) sampler.step();
    expect(sampler.promptTokens).toEqual({ run: prompt.length + 1, reused: prompt.length - 1 });
    const [alone] = sampleBatch(new BatchSampler(m), [prompt], 2, params({ ignoreEos: true }));
    expect([sampler.take(first), sampler.take(second)]).toEqual(alone);
  });

  it("steps at most maxRunning sequences together; the others wait their turn and come out the same", () => {
    const m = model();
    const capped = new BatchSampler(m, { maxRunning: 2 });
    const ids = prompts.map((p) => capped.add(p, params()));
    expect(capped.step()).toHaveLength(2); // the third prompt waits
    while (capped.active > 0) capped.step();
    const free = sampleBatch(new BatchSampler(m), prompts, 1, params());
    expect(ids.map((id) => capped.take(id))).toEqual(free.map((s) => s[0]));
  });

  it("stops at max tokens, and at the end of the context", () => {
    const m = model();
    const [long] = sampleBatch(
      new BatchSampler(m),
      [prompts[0]!],
      1,
      params({ maxTokens: 5, ignoreEos: true }),
    );
    expect(long![0]).toMatchObject({ finishReason: "length", stopReason: null });
    expect(long![0]!.tokens).toHaveLength(5);
    const nearlyFull = Array.from({ length: config.maxSeqLen - 2 }, (_, i) => 97 + (i % 26));
    const [edge] = sampleBatch(
      new BatchSampler(m),
      [nearlyFull],
      1,
      params({ maxTokens: 50, ignoreEos: true }),
    );
    expect(edge![0]!.tokens).toHaveLength(3); // positions 22 and 23 run; the third token is never fed back
  });

  it("stops at a stop token id and reports it", () => {
    const m = model();
    const [free] = sampleBatch(
      new BatchSampler(m),
      [prompts[2]!],
      1,
      params({ temperature: 0, ignoreEos: true }),
    );
    const third = free![0]!.tokens[2]!;
    const [stopped] = sampleBatch(
      new BatchSampler(m),
      [prompts[2]!],
      1,
      params({ temperature: 0, ignoreEos: true, stopTokenIds: [third] }),
    );
    const at = free![0]!.tokens.indexOf(third);
    expect(stopped![0]).toMatchObject({ finishReason: "stop", stopReason: third });
    expect(stopped![0]!.tokens).toEqual(free![0]!.tokens.slice(0, at + 1));
  });

  it("rejects a prompt longer than the context, or with ids outside the vocabulary", () => {
    const sampler = new BatchSampler(model());
    expect(() => sampler.add(new Array(25).fill(97), params())).toThrow(SequenceTooLongError);
    expect(() => sampler.add([256, 999], params())).toThrow(SamplingError);
    expect(() => sampler.add([256], params({ stopTokenIds: [300] }))).toThrow(
      /token id 300 is outside the vocabulary/,
    );
  });
});

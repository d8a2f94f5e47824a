import { availableParallelism } from "node:os";
import { describe, expect, it } from "vitest";
import { renderChat } from "../tokenizer/chat-template.ts";
import { SamplingParams } from "../trainer/protocol.ts";
import { GenerationCancelledError, GenerationScheduler, PROMPT_SLACK } from "./generation-scheduler.ts";
import { randomModel } from "./test-support.ts";

const prompt = renderChat([{ role: "user", content: "hi" }], { addGenerationPrompt: true });
const params = SamplingParams.parse({ maxTokens: 40, ignoreEos: true, seed: 1 });

describe("the generation scheduler", () => {
  it("lets a sequence join while another runs, and each gets what it gets alone", async () => {
    const alone = async (seed: number) =>
      (
        await new GenerationScheduler(randomModel()).generate({
          prompt,
          params: { ...params, seed },
          stream: 0,
        })
      ).sequence.tokens;
    const scheduler = new GenerationScheduler(randomModel());
    let joinedAt = -1;
    let steps = 0;
    const first = scheduler.generate({
      prompt,
      params,
      stream: 0,
      onToken: () => {
        steps += 1;
        if (steps === 5) {
          joinedAt = scheduler.active;
          second = scheduler.generate({ prompt, params: { ...params, seed: 2 }, stream: 0 });
        }
      },
    });
    let second: ReturnType<GenerationScheduler["generate"]> | undefined;
    const a = await first;
    const b = await second!;
    expect(joinedAt).toBe(1);
    expect(a.sequence.tokens).toEqual(await alone(1));
    expect(b.sequence.tokens).toEqual(await alone(2));
  });

  it("stops a sequence whose signal aborts, freeing its place", async () => {
    const scheduler = new GenerationScheduler(randomModel());
    const controller = new AbortController();
    const run = scheduler.generate({
      prompt,
      params,
      stream: 0,
      signal: controller.signal,
      onToken: () => controller.abort(),
    });
    await expect(run).rejects.toBeInstanceOf(GenerationCancelledError);
    expect(scheduler.active).toBe(0);
  });

  it("records the alternatives of each token when asked", async () => {
    const { sequence, top } = await new GenerationScheduler(randomModel()).generate({
      prompt,
      params,
      stream: 0,
      topLogprobs: 2,
    });
    expect(top).toHaveLength(sequence.tokens.length);
    expect(top.every((t) => t.length === 2)).toBe(true);
  });

  it("cancels everything on close and refuses new work", async () => {
    const scheduler = new GenerationScheduler(randomModel());
    const run = scheduler.generate({ prompt, params, stream: 0 });
    scheduler.close();
    await expect(run).rejects.toThrow("closing");
    await expect(scheduler.generate({ prompt, params, stream: 0 })).rejects.toThrow("closing");
  });

  it("with two threads, runs sequences on a worker thread too, each getting what it gets alone", async () => {
    const model = randomModel();
    const scheduler = new GenerationScheduler(model, { threads: 2 });
    const alone = new GenerationScheduler(model);
    const request = (seed: number) => ({
      prompt: [...prompt.slice(0, -1), 97 + (seed % 26), ...prompt.slice(-1)],
      params: { ...params, seed },
      stream: 0,
    });
    try {
      // waves of concurrent sequences: the first starts the worker, later ones share it once ready
      const deadline = Date.now() + 60_000;
      for (let wave = 0; scheduler.started.workers === 0 && Date.now() < deadline; wave++) {
        const seeds = Array.from({ length: 6 }, (_, i) => wave * 6 + i);
        const together = await Promise.all(seeds.map((seed) => scheduler.generate(request(seed))));
        for (const [i, seed] of seeds.entries()) {
          expect(together[i]!.sequence).toEqual((await alone.generate(request(seed))).sequence);
        }
      }
      expect(scheduler.started.workers).toBeGreaterThan(0);
      expect(scheduler.active).toBe(0);
      // new weights reach the worker's lane too
      const next = randomModel(77);
      await scheduler.updateWeights(async () => Float32Array.from(next.params));
      const nextAlone = new GenerationScheduler(next);
      const before = scheduler.started.workers;
      const seeds = [100, 101, 102, 103];
      const after = await Promise.all(seeds.map((seed) => scheduler.generate(request(seed))));
      expect(scheduler.started.workers).toBeGreaterThan(before);
      for (const [i, seed] of seeds.entries()) {
        expect(after[i]!.sequence).toEqual((await nextAlone.generate(request(seed))).sequence);
      }
    } finally {
      scheduler.close();
    }
  });

  it.skipIf(availableParallelism() < 2)(
    "by default keeps a single stream on this thread, and spreads concurrent ones over two, a burst of one prompt too",
    { timeout: 120_000 },
    async () => {
      const model = randomModel();
      const scheduler = new GenerationScheduler(model);
      const alone = new GenerationScheduler(model, { threads: 1 });
      const request = (seed: number) => ({ prompt, params: { ...params, seed }, stream: 0 });
      try {
        for (const seed of [1, 2, 3]) await scheduler.generate(request(seed));
        expect(scheduler.started).toEqual({ main: 3, workers: 0 });
        // waves of two prompts at once start the worker; later waves use it once it is ready
        const other = renderChat([{ role: "user", content: "ho" }], { addGenerationPrompt: true });
        const deadline = Date.now() + 60_000;
        for (let wave = 0; scheduler.started.workers === 0 && Date.now() < deadline; wave++) {
          await Promise.all([
            scheduler.generate(request(10 + wave)),
            scheduler.generate({ ...request(500 + wave), prompt: other }),
          ]);
        }
        expect(scheduler.started.workers).toBeGreaterThan(0);
        // a group of samples of one prompt stays on one lane, sharing its prefill
        const before = { ...scheduler.started };
        const group = await Promise.all(
          Array.from({ length: PROMPT_SLACK }, (_, i) => scheduler.generate(request(1000 + i))),
        );
        const main = scheduler.started.main - before.main;
        expect([0, PROMPT_SLACK]).toContain(main);
        // a burst of one prompt spreads over both lanes, evenly within PROMPT_SLACK
        const start = { ...scheduler.started };
        const seeds = Array.from({ length: 48 }, (_, i) => 2000 + i);
        const burst = await Promise.all(seeds.map((seed) => scheduler.generate(request(seed))));
        const onMain = scheduler.started.main - start.main;
        const onWorker = scheduler.started.workers - start.workers;
        expect(onMain + onWorker).toBe(48);
        expect(Math.abs(onMain - onWorker)).toBeLessThanOrEqual(PROMPT_SLACK);
        // and every sequence is what it is alone
        for (const [i, seed] of seeds.entries()) {
          expect(burst[i]!.sequence).toEqual((await alone.generate(request(seed))).sequence);
        }
        expect(group[0]!.sequence).toEqual((await alone.generate(request(1000))).sequence);
      } finally {
        scheduler.close();
      }
    },
  );
});

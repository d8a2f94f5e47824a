import { type BatchItem, createLocalTrainer, renderChat, tokenizer } from "@vf-rl/engine";
import { describe, expect, it } from "vitest";
import { HttpTrainer } from "./http-trainer.ts";
import { describeTrainerContract, TINY_CONFIG } from "./trainer.contract.ts";
import { startTrainerServer } from "./trainer-server.ts";

describeTrainerContract("engine in process", async () => {
  const trainer = await createLocalTrainer({ config: TINY_CONFIG, seed: 7 });
  return { trainer, close: () => trainer.close() };
});

describeTrainerContract("engine over HTTP", async () => {
  const engine = await createLocalTrainer({ config: TINY_CONFIG, seed: 7 });
  const server = await startTrainerServer(engine, { config: engine.config });
  return {
    trainer: new HttpTrainer({ url: server.url }),
    close: async () => {
      await server.close();
      await engine.close();
    },
  };
});

describe("the HTTP trainer", () => {
  it("computes exactly what the engine computes in process, step after step", async () => {
    const prompt = renderChat([{ role: "user", content: "sort: b a" }], { addGenerationPrompt: true });
    const reply = [...tokenizer.encode("a b"), tokenizer.eot];
    const batch: BatchItem[] = [
      {
        tokens: [...prompt, ...reply],
        mask: [...prompt.map(() => 0 as const), ...reply.map(() => 1 as const)],
      },
    ];
    const local = await createLocalTrainer({ config: TINY_CONFIG, seed: 7 });
    const engine = await createLocalTrainer({ config: TINY_CONFIG, seed: 7 });
    const server = await startTrainerServer(engine, { config: engine.config });
    const remote = new HttpTrainer({ url: server.url });
    try {
      for (let step = 0; step < 3; step++) {
        const [here, there] = await Promise.all(
          [local, remote].map((t) => t.forwardBackward(batch, { type: "cross_entropy" })),
        );
        expect(there!.loss).toBe(here!.loss);
        const [a, b] = await Promise.all([local, remote].map((t) => t.optimStep({ learningRate: 1e-2 })));
        expect(b!.gradNorm).toBe(a!.gradNorm);
      }
    } finally {
      await server.close();
      await engine.close();
      await local.close();
    }
  });
});

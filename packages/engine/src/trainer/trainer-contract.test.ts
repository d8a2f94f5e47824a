import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { TrainerRefusedError, TrainerUnavailableError } from "../errors.ts";
import { renderChat } from "../tokenizer/chat-template.ts";
import { tokenizer } from "../tokenizer/tokenizer.ts";
import { HttpTrainer } from "./http/http-trainer.ts";
import { startTrainerServer } from "./http/trainer-server.ts";
import { createLocalTrainer } from "./local-trainer.ts";
import type { BatchItem } from "./protocol.ts";
import { describeTrainerContract, TINY_CONFIG } from "./trainer.contract.ts";

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

  it("tells a refused request from a server it cannot reach, by class", async () => {
    const engine = await createLocalTrainer({ config: TINY_CONFIG, seed: 7 });
    const server = await startTrainerServer(engine, { config: engine.config, log: () => {} });
    try {
      const remote = new HttpTrainer({ url: server.url });
      await expect(remote.loadState("/nowhere/state")).rejects.toBeInstanceOf(TrainerRefusedError);
    } finally {
      await server.close();
      await engine.close();
    }
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const { port } = probe.address() as { port: number };
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const gone = new HttpTrainer({ url: `http://127.0.0.1:${port}` });
    await expect(gone.health()).rejects.toBeInstanceOf(TrainerUnavailableError);
    await expect(gone.optimStep({ learningRate: 1e-3 })).rejects.toThrow(/cannot reach the trainer/);
  });
});

import { createLocalTrainer } from "@vf/engine";
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

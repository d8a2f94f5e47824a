/**
 * `vf trainer serve`: the engine behind the trainer protocol's HTTP routes, so `vf train
 * --trainer-url` can run the gradient work on another machine (or process). Checkpoint and weight
 * folders are paths on this machine: share the run folder with the orchestrator and the inference
 * server (a network file system), as prime-rl's filesystem weight broadcast does.
 */
import { BASE_MODEL_DIR } from "@vf-rl/engine/base-model";
import type { Command } from "commander";
import { integerFlag, portFlag } from "../../flag-values.ts";
import { checkCheckpointFolder } from "../../path-checks.ts";
import { untilInterrupted } from "../../terminal/interrupt.ts";
import type { Output } from "../../terminal/output.ts";

interface TrainerServeFlags {
  port: number;
  host: string;
  model?: string;
  threads: number;
}

export function registerTrainer(program: Command, io: Output): void {
  const trainer = program
    .command("trainer")
    .description("the trainer protocol over HTTP (for vf train --trainer-url)");
  trainer
    .command("serve")
    .description("serve the engine's trainer (forwardBackward, optimStep, saveWeights, ...) over HTTP")
    .option("--port <n>", "port to listen on (0: any free port)", portFlag("--port"), 8200)
    .option("--host <host>", "interface to listen on (0.0.0.0 for every one)", "127.0.0.1")
    .option("--model <dir>", "checkpoint folder to train (default: the built-in base model)")
    .option("--threads <n>", "worker threads of the engine", integerFlag("--threads", 1), 2)
    .addHelpText(
      "after",
      `
Routes: POST /forward_backward, /forward, /optim_step, /save_weights, /load_weights, /save_state,
        /load_state, /sample (bodies: the trainer protocol's schemas), GET /health

Example:
  vf trainer serve --port 8200 --host 0.0.0.0
  vf train configs/train/reverse-text.toml --trainer-url http://trainer-host:8200`,
    )
    .action(async (flags: TrainerServeFlags) => {
      const { createLocalTrainer, startTrainerServer } = await import("@vf-rl/engine");
      const { vfErrorOf } = await import("@vf-rl/train/engine-errors");
      const { listenError } = await import("../serve/start-server.ts");
      if (flags.model !== undefined) await checkCheckpointFolder(flags.model);
      const checkpoint = flags.model ?? BASE_MODEL_DIR;
      let engine: Awaited<ReturnType<typeof createLocalTrainer>>;
      try {
        engine = await createLocalTrainer({ checkpoint, threads: flags.threads });
      } catch (error) {
        throw vfErrorOf(error);
      }
      const server = await startTrainerServer(engine, {
        port: flags.port,
        host: flags.host,
        config: engine.config,
        log: (line) => io.err(line),
      }).catch(async (error: unknown) => {
        await engine.close(); // its worker threads would keep vf running after the error
        throw listenError(error, flags);
      });
      const c = engine.config;
      io.out(
        `trainer serving ${checkpoint} (d_model ${c.dModel}, ${c.nLayers} layers, context ${c.maxSeqLen}) at ${server.url}`,
      );
      io.err("press Ctrl-C to stop");
      await untilInterrupted();
      await server.close();
      await engine.close();
    });
}

/**
 * `vf serve`: the engine's OpenAI-compatible server on a checkpoint (default: the shipped base
 * model), until Ctrl-C. Any OpenAI client, `vf eval -b`, and `vf train` can use it.
 */
import { BASE_MODEL_DIR, BUILTIN_MODEL_NAME } from "@vf-rl/engine/base-model";
import type { Command } from "commander";
import { integerFlag, portFlag, textFlag, threadsFlag } from "../../flag-values.ts";
import { checkCheckpointFolder } from "../../path-checks.ts";
import { untilInterrupted } from "../../terminal/interrupt.ts";
import type { Output } from "../../terminal/output.ts";

interface ServeFlags {
  model: string;
  port: number;
  host: string;
  name: string;
  maxBatch: number;
  threads: number | "auto";
}

export function registerServe(program: Command, io: Output): void {
  program
    .command("serve")
    .description("serve a model of the engine over the OpenAI API (with vLLM's token fields)")
    .option("--model <dir>", "checkpoint folder: config.json + model.safetensors (default: the base model)")
    .option("--port <n>", "port to listen on (0: any free port)", portFlag("--port"), 8000)
    .option("--host <host>", "interface to listen on (0.0.0.0 for every one)", "127.0.0.1")
    .option(
      "--name <name>",
      "the model name clients send",
      textFlag("--name", `give the model name clients send, or leave the flag out for ${BUILTIN_MODEL_NAME}`),
      BUILTIN_MODEL_NAME,
    )
    .option("--max-batch <n>", "most sequences sampled together", integerFlag("--max-batch", 1), 64)
    .option(
      "--threads <n>",
      'threads that sample (each more one steps a batch of its own); "auto": 2 on a machine of two cores or more',
      threadsFlag("--threads"),
      "auto",
    )
    .addHelpText(
      "after",
      `
Routes: GET /v1/models, POST /v1/chat/completions, POST /v1/completions,
        POST /update_weights {"weight_dir": DIR}, GET /health

Examples:
  vf serve                                      the base model at http://127.0.0.1:8000/v1
  vf serve --model outputs/sft/final --port 8001 --name my-sft
  vf eval reverse-text -m vf-builtin -b http://127.0.0.1:8000/v1
  curl http://127.0.0.1:8000/v1/chat/completions -H 'content-type: application/json' \\
    -d '{"model": "vf-builtin", "messages": [{"role": "user", "content": "Reverse: abc"}]}'`,
    )
    .action(async (flags: Omit<ServeFlags, "model"> & { model?: string }) => {
      const { startServerForCli } = await import("./start-server.ts");
      if (flags.model !== undefined) await checkCheckpointFolder(flags.model);
      const checkpoint = flags.model ?? BASE_MODEL_DIR;
      const server = await startServerForCli({
        checkpoint,
        port: flags.port,
        host: flags.host,
        modelName: flags.name,
        maxBatch: flags.maxBatch,
        threads: flags.threads,
        log: (line) => io.err(line),
      });
      const { config } = server;
      io.err(
        `serving "${server.modelName}" from ${checkpoint} (dModel ${config.dModel}, ${config.nLayers} layers, context ${config.maxSeqLen})`,
      );
      io.out(server.url);
      io.err("press Ctrl-C to stop");
      await untilInterrupted();
      await server.close();
      io.err("stopped");
    });
}

/**
 * A pool worker: a child process that loads the environment (or agents: load-served-env.ts), serves
 * it on its ipc address, and tells the broker over the IPC channel when it is ready (or why it could
 * not load). It exits when the broker goes away, ignores SIGINT (the broker decides when workers stop, so a Ctrl-C in the
 * terminal drains instead of killing rollouts), and on SIGTERM aborts what runs and tears down.
 */
import { VfError } from "@vf-rl/core/errors";
import { z } from "zod";
import { describeError } from "../wire/wire-error.ts";
import { loadServedEnv, ServedRuntime } from "./load-served-env.ts";
import { RequestHandler } from "./request-handler.ts";
import { serveWorkerSocket } from "./worker-socket.ts";

/** What the broker hands a worker, as JSON in VF_ENV_SERVER_WORKER. */
export const WorkerConfig = z.object({
  index: z.number().int(),
  address: z.string(),
  envId: z.string(),
  envArgs: z.record(z.string(), z.unknown()),
  extraEnvKwargs: z.record(z.string(), z.unknown()),
  /** Serve as agents with this harness (a taskset is served as agents without one: bash). */
  harness: z.string().optional(),
  /** Where agents run; default local. */
  runtime: ServedRuntime.optional(),
  producer: z.string(),
  /** The variables whose values runs may have sent as API keys. */
  keyVars: z.array(z.string()),
});
export type WorkerConfig = z.infer<typeof WorkerConfig>;

/** Messages a worker sends the broker. */
export type WorkerMessage = { type: "ready" } | { type: "load-error"; message: string };

const send = (message: WorkerMessage) => process.send?.(message);
const log = (line: string) => process.stderr.write(`${line}\n`);

async function main(): Promise<void> {
  const config = WorkerConfig.parse(JSON.parse(process.env.VF_ENV_SERVER_WORKER ?? "{}"));
  process.on("SIGINT", () => {});
  process.on("disconnect", () => process.exit(0));
  let handler: RequestHandler;
  // biome-ignore lint/suspicious/noExplicitAny: environments of any state type
  let env: any;
  try {
    const served = await loadServedEnv(config);
    env = served.env;
    handler = new RequestHandler({
      env,
      envId: served.id,
      producer: config.producer,
      keyVars: config.keyVars,
      log,
      ...(served.samplingDefaults ? { samplingDefaults: served.samplingDefaults } : {}),
    });
  } catch (error) {
    // vf's own errors say what to do; anything else is named by its class.
    const { type, message } = describeError(error);
    send({ type: "load-error", message: error instanceof VfError ? message : `${type}: ${message}` });
    process.exit(1);
  }
  const socket = await serveWorkerSocket(config.address, handler, log);
  process.once("SIGTERM", () => {
    socket.close();
    void handler
      .close()
      .then(() => env.teardown())
      .finally(() => process.exit(0));
  });
  send({ type: "ready" });
  await socket.done;
}

main().catch((error: unknown) => {
  log(`worker: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exit(1);
});

/** The engine's server, started for a vf command. */
import { type EngineServer, type EngineServerOptions, startEngineServer } from "@vf-rl/engine";
import { vfErrorOf } from "@vf-rl/train/engine-errors";
import { listenError } from "../../listen-error.ts";

/**
 * Starts the engine server for a command, turning the engine's errors (a bad checkpoint, a port in
 * use) into one-line user errors.
 */
export async function startServerForCli(options: EngineServerOptions): Promise<EngineServer> {
  try {
    return await startEngineServer(options);
  } catch (error) {
    throw listenError(vfErrorOf(error), { port: options.port ?? 0, host: options.host ?? "127.0.0.1" });
  }
}

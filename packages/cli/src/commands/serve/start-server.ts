/** The engine's server, started for a vf command. */
import { UserError } from "@vf-rl/core/errors";
import { EngineError, type EngineServer, type EngineServerOptions, startEngineServer } from "@vf-rl/engine";
import { listenError } from "../../listen-error.ts";

/**
 * Starts the engine server for a command, turning the engine's errors (a bad checkpoint, a port in
 * use) into one-line user errors.
 */
export async function startServerForCli(options: EngineServerOptions): Promise<EngineServer> {
  try {
    return await startEngineServer(options);
  } catch (error) {
    if (error instanceof EngineError) throw new UserError(error.message, { cause: error });
    throw listenError(error, { port: options.port ?? 0, host: options.host ?? "127.0.0.1" });
  }
}

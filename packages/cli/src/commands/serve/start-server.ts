/** The engine's server, started for a vf command. */
import { UserError } from "@vf/core/errors";
import { EngineError, type EngineServer, type EngineServerOptions, startEngineServer } from "@vf/engine";

/**
 * Starts the engine server for a command, turning the engine's errors (a bad checkpoint, a port in
 * use) into one-line user errors.
 */
export async function startServerForCli(options: EngineServerOptions): Promise<EngineServer> {
  try {
    return await startEngineServer(options);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EADDRINUSE") {
      throw new UserError(
        `port ${options.port} is already in use: pass --port with a free port (or 0 for any)`,
      );
    }
    if (code === "EADDRNOTAVAIL" || code === "ENOTFOUND") {
      throw new UserError(`cannot listen on ${options.host}: pass --host with an address of this machine`);
    }
    if (error instanceof EngineError) throw new UserError(error.message, { cause: error });
    throw error;
  }
}

/**
 * A server of vf's started for a command, and its failure to listen told in terms of the flags that
 * fix it: the engine's server (`vf serve`, vf eval's local model) and, through `listenError`, the
 * trainer's (`vf trainer serve`).
 */
import { UserError } from "@vf-rl/core/errors";
import { type EngineServer, type EngineServerOptions, startEngineServer } from "@vf-rl/engine";
import { vfErrorOf } from "@vf-rl/train/engine-errors";

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

/** The user error for a port in use or a host not of this machine; any other error as it is. */
export function listenError(error: unknown, where: { port: number; host: string }): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "EADDRINUSE") {
    return new UserError(`port ${where.port} is already in use: pass --port with a free port (or 0 for any)`);
  }
  if (code === "EADDRNOTAVAIL" || code === "ENOTFOUND") {
    return new UserError(`cannot listen on ${where.host}: pass --host with an address of this machine`);
  }
  return error;
}

/**
 * A server of vf's (`vf serve`, `vf trainer serve`) failing to listen, told in terms of the flags
 * that fix it.
 */
import { UserError } from "@vf-rl/core/errors";

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

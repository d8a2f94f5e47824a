/**
 * Serving a hono app on a port, for both of the engine's servers: listening reports a port in use
 * or a host not of this machine as the listen error it is (the CLI words it), and closing stops
 * listening and ends every open connection (keep-alive ones and streams included) once.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createAdaptorServer } from "@hono/node-server";
import type { Hono } from "hono";

/** Where to listen. */
export interface ListenOptions {
  /** Port; 0 picks a free one. */
  port: number;
  /** Interface, e.g. 127.0.0.1, or 0.0.0.0 for every one. */
  host: string;
}

/** A listening app. */
export interface ServedApp {
  /** The port it listens on (the one picked, for port 0). */
  port: number;
  /** `http://host:port`, with an IPv6 host in brackets. */
  origin: string;
  /** Stops listening and closes every connection; later calls return the first call's promise. */
  close(): Promise<void>;
}

/**
 * Starts serving `app`.
 *
 * @example
 * const served = await serveApp(app, { port: 0, host: "127.0.0.1" });
 * await fetch(`${served.origin}/health`);
 * await served.close();
 */
export async function serveApp(app: Hono, options: ListenOptions): Promise<ServedApp> {
  const server = createAdaptorServer({ fetch: app.fetch, hostname: options.host }) as Server;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const host = options.host.includes(":") ? `[${options.host}]` : options.host;
  let closing: Promise<void> | null = null;
  return {
    port,
    origin: `http://${host}:${port}`,
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

/**
 * `vf view --web`: serves the pages on loopback only (the rows hold prompts, answers and keys' worth
 * of context: nothing leaves the machine), on a free port unless `--port` names one, prints the URL
 * on stdout and serves until Ctrl-C.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { UserError } from "@vf-rl/core/errors";
import { untilInterrupted } from "../../../terminal/interrupt.ts";
import type { Output } from "../../../terminal/output.ts";
import { RunStore } from "./run-store.ts";
import { handleRequest } from "./web-routes.ts";

/** The address the viewer listens on: this machine only. */
const HOST = "127.0.0.1";

export interface ServeWebOptions {
  /** 0 (the default) asks the system for a free port. */
  port?: number;
}

/** A running viewer: its URL and how to stop it. */
export interface WebViewer {
  url: string;
  close(): Promise<void>;
}

/** Starts the viewer of `dir`'s runs. */
export async function startWebViewer(dir: string, options: ServeWebOptions = {}): Promise<WebViewer> {
  const store = new RunStore(dir);
  let hosts: string[] = [];
  const server = createServer((request, response) => {
    // Only pages asked for by this machine's own name: a web page elsewhere that rebinds its domain
    // to 127.0.0.1 (DNS rebinding) sends its own Host, and must not read the runs.
    if (!hosts.includes(request.headers.host ?? "")) {
      response.writeHead(421, { "content-type": "text/plain; charset=utf-8" });
      response.end(`vf view serves ${hosts[0]} only\n`);
      return;
    }
    void handleRequest(store, request, response);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) =>
      reject(
        error.code === "EADDRINUSE"
          ? new UserError(
              `port ${options.port} of ${HOST} is in use: pick another with --port, or leave --port out for a free one`,
            )
          : error,
      ),
    );
    server.listen(options.port ?? 0, HOST, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  hosts = [`${HOST}:${port}`, `localhost:${port}`];
  return {
    url: `http://${HOST}:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Serves until Ctrl-C, printing the URL for the user (stdout) and how to stop (stderr). */
export async function serveWeb(dir: string, options: ServeWebOptions, io: Output): Promise<void> {
  const viewer = await startWebViewer(dir, options);
  io.err(`vf view: the runs under ${dir} at ${viewer.url} (press Ctrl-C to stop)`);
  io.out(viewer.url);
  await untilInterrupted();
  await viewer.close();
  io.err("stopped");
}

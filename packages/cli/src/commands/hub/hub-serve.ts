/**
 * `vf hub serve`: runs an Environments Hub until Ctrl-C: the JSON API, the npm registry protocol
 * and the web pages, over an embedded database under `--data` (or PostgreSQL by `DATABASE_URL`).
 * A fresh Hub creates its first user, `admin`, whose password and key are printed this once.
 */
import { createServer } from "node:net";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { UserError } from "@vf-rl/core/errors";
import type { Command } from "commander";
import { httpUrlFlag, portFlag } from "../../flag-values.ts";
import { untilInterrupted } from "../../terminal/interrupt.ts";
import type { Output } from "../../terminal/output.ts";
import { vfCommand } from "../../vf-command.ts";
import { checkHubServeSettings, databaseError } from "./hub-serve-checks.ts";

interface ServeFlags {
  data: string;
  port: number;
  host: string;
  databaseUrl?: string;
  blobUrl?: string;
  publicUrl?: string;
}

/** Where a Hub keeps its data by default: `$VF_HOME/hub` (default `~/.vf/hub`). */
export function defaultHubDataDir(): string {
  return join(process.env.VF_HOME ?? join(homedir(), ".vf"), "hub");
}

/** Registers `vf hub serve` on the `vf hub` command. */
export function registerHubServe(hub: Command, io: Output): void {
  hub
    .command("serve")
    .description("run a Hub: API, npm registry and web pages, until Ctrl-C")
    .option("--data <dir>", "folder for the embedded database and blobs (default: $VF_HOME/hub)")
    .option("--port <n>", "port to listen on (0: any free port)", portFlag("--port"), 8377)
    .option("--host <host>", "interface to listen on (0.0.0.0 for every one)", "127.0.0.1")
    .option(
      "--database-url <url>",
      "a PostgreSQL server instead of the embedded database (default: DATABASE_URL)",
    )
    .option("--blob-url <url>", "blob store: a folder, or s3://bucket/prefix?endpoint=...&region=...")
    .option(
      "--public-url <url>",
      "the origin users reach the Hub at, when behind a proxy",
      httpUrlFlag("--public-url", "https://hub.example.com"),
    )
    .option("-v, --verbose", "show stack traces of failures")
    .addHelpText(
      "after",
      `
A fresh Hub creates the user "admin" and prints its password and API key once: save them.

Examples:
  vf hub serve                                  http://127.0.0.1:8377, data in ~/.vf/hub
  vf hub serve --data ./hub-data --port 9000
  DATABASE_URL=postgres://vf@db/vf vf hub serve --blob-url "s3://envs?endpoint=http://minio:9000&region=us-east-1"
  vf login --key --hub http://127.0.0.1:8377    then log in with the printed key`,
    )
    .action(async (flags: Omit<ServeFlags, "data"> & { data?: string }) => {
      const settings = {
        dataDir: flags.data ?? defaultHubDataDir(),
        // Empty is unset, as startHub reads it.
        databaseUrl: (flags.databaseUrl ?? process.env.DATABASE_URL) || undefined,
        databaseSource: flags.databaseUrl ? "--database-url" : "DATABASE_URL",
        blobUrl: flags.blobUrl,
      };
      await checkHubServeSettings(settings);
      const dataDir = resolve(settings.dataDir);
      // The server library cannot report a busy port or a foreign address as an error, so check first.
      await assertPortFree(flags.host, flags.port);
      const { startHub } = await import("@vf-rl/hub");
      const hub = await startHub({
        dataDir,
        port: flags.port,
        host: flags.host,
        ...(flags.databaseUrl ? { databaseUrl: flags.databaseUrl } : {}),
        ...(flags.blobUrl ? { blobUrl: flags.blobUrl } : {}),
        ...(flags.publicUrl ? { publicUrl: flags.publicUrl } : {}),
      }).catch((error: unknown) => {
        throw databaseError(error, settings);
      });
      const database =
        (flags.databaseUrl ?? process.env.DATABASE_URL)
          ? "PostgreSQL (DATABASE_URL)"
          : `embedded, in ${join(dataDir, "db")}`;
      io.err(
        `Hub listening on ${hub.url}; database: ${database}; blobs: ${flags.blobUrl ?? join(dataDir, "blobs")}`,
      );
      io.out(hub.url);
      if (hub.bootstrap) {
        const { user, password, apiKey } = hub.bootstrap;
        // One write, so a reader of the pipe sees the credentials whole or not at all.
        io.out(
          [
            "",
            "first user created (shown this once, save it now):",
            `  user      ${user}`,
            `  password  ${password}`,
            `  API key   ${apiKey}`,
            `log in with: ${vfCommand(`login --key --hub ${hub.url}`)}`,
            "",
          ].join("\n"),
        );
      }
      io.err("press Ctrl-C to stop");
      await untilInterrupted();
      await hub.close();
      io.err("stopped");
    });
}

function assertPortFree(host: string, port: number): Promise<void> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "EADDRINUSE") {
        fail(new UserError(`port ${port} is already in use: pass --port with a free port (or 0 for any)`));
      } else if (error.code === "EADDRNOTAVAIL" || error.code === "ENOTFOUND") {
        fail(new UserError(`cannot listen on ${host}: pass --host with an address of this machine`));
      } else fail(error);
    });
    probe.listen(port, host, () => probe.close(() => done()));
  });
}

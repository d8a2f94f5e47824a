/**
 * Starts a throwaway PostgreSQL server (Debian's postgresql package) in a temporary folder for tests:
 * initdb, then pg_ctl on a free loopback port. Postgres refuses to run as root, so as root it runs as
 * the `postgres` user through runuser. `stop()` shuts it down and deletes the folder.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A running test server. */
export interface PostgresServer {
  /** `postgres://vf@127.0.0.1:PORT/postgres` */
  url: string;
  stop(): Promise<void>;
}

/** The folder holding initdb and pg_ctl; throws saying what to install when there is none. */
export function postgresBinDir(): string {
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  for (const version of versions) {
    const bin = join(root, version, "bin");
    if (existsSync(join(bin, "initdb")) && existsSync(join(bin, "pg_ctl"))) return bin;
  }
  throw new Error("PostgreSQL server binaries (initdb, pg_ctl) are missing: apt-get install -y postgresql");
}

/** Starts a fresh server; call `stop()` in afterAll. */
export async function startPostgresServer(): Promise<PostgresServer> {
  const bin = postgresBinDir();
  const dir = mkdtempSync(join(tmpdir(), "vf-pg-"));
  const data = join(dir, "data");
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    let ids: [number, number];
    try {
      ids = [
        Number(execFileSync("id", ["-u", "postgres"]).toString()),
        Number(execFileSync("id", ["-g", "postgres"]).toString()),
      ];
    } catch {
      throw new Error(
        "PostgreSQL refuses to run as root and there is no postgres user to run it as: apt-get install -y postgresql",
      );
    }
    chownSync(dir, ...ids);
  }
  chmodSync(dir, 0o700);
  const run = (file: string, args: string[]) => {
    const [command, argv] = asRoot
      ? ["runuser", ["-u", "postgres", "--", join(bin, file), ...args]]
      : [join(bin, file), args];
    execFileSync(command as string, argv as string[], { stdio: "pipe" });
  };
  const port = await freePort();
  run("initdb", ["-D", data, "-U", "vf", "--auth=trust", "-E", "UTF8", "--no-sync", "--locale=C"]);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -F -c max_connections=50`;
  run("pg_ctl", ["-D", data, "-o", options, "-l", join(dir, "server.log"), "-w", "start"]);
  return {
    url: `postgres://vf@127.0.0.1:${port}/postgres`,
    async stop() {
      run("pg_ctl", ["-D", data, "-m", "fast", "-w", "stop"]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A TCP port on 127.0.0.1 that is free right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

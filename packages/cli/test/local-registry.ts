/**
 * A real npm registry for tests: Verdaccio in a child process on a loopback port, its storage in a
 * temporary folder. Packages of this workspace are published to it; every other package is fetched
 * through it from the registry npm is configured with (its uplink), as a user's registry would.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** A running registry. */
export interface LocalRegistry {
  /** e.g. http://127.0.0.1:40123/ */
  url: string;
  /** An .npmrc that sends everything to this registry and holds a publishing token. */
  npmrc: string;
  close(): Promise<void>;
}

/** Starts Verdaccio with its files under `dir`. */
export async function startLocalRegistry(dir: string): Promise<LocalRegistry> {
  mkdirSync(dir, { recursive: true });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const uplink =
    (await run("npm", ["config", "get", "registry"])).stdout.trim() || "https://registry.npmjs.org/";
  const config = join(dir, "config.yaml");
  writeFileSync(
    config,
    [
      `storage: ${join(dir, "storage")}`,
      "auth:",
      "  htpasswd:",
      `    file: ${join(dir, "htpasswd")}`,
      "    max_users: 10",
      "uplinks:",
      "  upstream:",
      `    url: ${uplink}`,
      "    timeout: 60s",
      "packages:",
      // The workspace's own scopes come only from here: nothing of the public registry's.
      "  '@vf-rl/*': { access: $all, publish: $authenticated }",
      "  '@vf-env/*': { access: $all, publish: $authenticated }",
      "  '**': { access: $all, publish: $authenticated, proxy: upstream }",
      "log: { type: stdout, format: pretty, level: error }",
      "",
    ].join("\n"),
  );
  const bin = createRequire(import.meta.url).resolve("verdaccio/bin/verdaccio");
  const child = spawn(process.execPath, [bin, "--config", config, "--listen", `127.0.0.1:${port}`], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  await waitForPing(url, child, () => output);
  const token = await createUser(url);
  const npmrc = join(dir, "publisher.npmrc");
  writeFileSync(npmrc, `registry=${url}\n//127.0.0.1:${port}/:_authToken=${token}\n`);
  return { url, npmrc, close: () => stop(child) };
}

async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitForPing(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`Verdaccio exited: ${output()}`);
    try {
      if ((await fetch(`${url}-/ping`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`Verdaccio did not answer within 60 s: ${output()}`);
}

/** Registers a publisher, as `npm adduser` does, and returns its token. */
async function createUser(url: string): Promise<string> {
  const response = await fetch(`${url}-/user/org.couchdb.user:publisher`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "publisher", password: "publisher-password" }),
  });
  const body = (await response.json()) as { token?: string };
  if (!response.ok || !body.token) throw new Error(`cannot create a Verdaccio user: ${JSON.stringify(body)}`);
  return body.token;
}

/** Stops the registry: SIGTERM, then SIGKILL if a loaded machine keeps it from exiting in 10 s. */
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.on("exit", resolve));
  child.kill("SIGTERM");
  const forced = setTimeout(() => child.kill("SIGKILL"), 10_000);
  await exited;
  clearTimeout(forced);
}

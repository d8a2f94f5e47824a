#!/usr/bin/env node
/**
 * vf's packages on a local npm registry, the way to install vf until its public npm release: builds
 * every package of this workspace, starts Verdaccio (a devDependency of this repository, installed by
 * `npm ci` with the `overrides` entry it needs) on 127.0.0.1, publishes every package to it with a
 * publisher of its own, and prints the line that installs vf in a project of yours. It serves until
 * Ctrl-C.
 *
 *   npm run local-registry                          http://127.0.0.1:4873/, files in .vf-tmp/local-registry
 *   npm run local-registry -- --port 0              a free port (printed)
 *   node scripts/local-registry.mjs --storage DIR   the registry's files in DIR
 *
 * The @vf-rl and @vf-env scopes come only from this registry; every other package is fetched
 * through it from the registry npm is configured with (its uplink), and kept in its storage. Each
 * start publishes the checkout as it is now: the scopes' copies of an earlier start are removed.
 * Progress goes to stderr; stdout has only the registry's address and the install line.
 */
import { execFile, execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs, promisify } from "node:util";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const SCOPES = ["@vf-rl", "@vf-env"];
const PUBLISH_CONCURRENCY = 3;
const USAGE =
  "usage: node scripts/local-registry.mjs [--port N (default 4873, 0 for a free one)] [--storage DIR]";

function fail(message, code = 1) {
  process.stderr.write(`error: ${message}\n`);
  process.exit(code);
}

function parseOptions() {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: "string", default: "4873" },
        storage: { type: "string", default: join(root, ".vf-tmp", "local-registry") },
        help: { type: "boolean", short: "h" },
      },
    }));
  } catch (error) {
    fail(`${error.message}\n${USAGE}`, 2);
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const port = Number(values.port);
  if (!/^\d+$/.test(values.port) || port > 65535) {
    fail(`--port must be a whole number from 0 to 65535, got "${values.port}"\n${USAGE}`, 2);
  }
  return { port, storage: resolve(values.storage) };
}

/** The folders of the workspace's packages that npm may publish (not `private`). */
function publishedPackages() {
  const { workspaces } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  return workspaces
    .flatMap((pattern) => {
      const parent = join(root, pattern.replace(/\/\*$/, ""));
      return readdirSync(parent).map((name) => join(parent, name));
    })
    .filter((dir) => existsSync(join(dir, "package.json")))
    .filter((dir) => !JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).private);
}

/** The registry npm uses when nothing else is said: the uplink every other package comes through. */
function uplinkRegistry() {
  try {
    return execFileSync("npm", ["config", "get", "registry"], { encoding: "utf8" }).trim();
  } catch (error) {
    process.stderr.write(`npm config get registry failed (${error.message}): using the public registry\n`);
    return "https://registry.npmjs.org/";
  }
}

/** Verdaccio's config: the storage, a password file for the publisher, and who may read and publish. */
function writeConfig(storage) {
  // A fresh publisher and fresh copies of vf's packages on every start; the uplink's cache stays.
  for (const scope of SCOPES) rmSync(join(storage, "storage", scope), { recursive: true, force: true });
  rmSync(join(storage, "htpasswd"), { force: true });
  mkdirSync(storage, { recursive: true });
  const config = join(storage, "config.yaml");
  writeFileSync(
    config,
    [
      `storage: ${join(storage, "storage")}`,
      "auth:",
      "  htpasswd:",
      `    file: ${join(storage, "htpasswd")}`,
      "    max_users: 1",
      "uplinks:",
      "  upstream:",
      `    url: ${uplinkRegistry()}`,
      "    timeout: 60s",
      "packages:",
      // vf's scopes come only from here, never from the uplink: no one else's package of that name.
      ...SCOPES.map((scope) => `  '${scope}/*': { access: $all, publish: $authenticated }`),
      "  '**': { access: $all, publish: $authenticated, proxy: upstream }",
      "log: { type: stderr, format: pretty, level: error }",
      "",
    ].join("\n"),
  );
  return config;
}

/** Listens with `server` on 127.0.0.1:`port`; a port in use is a one-line error. */
async function listen(server, port) {
  await new Promise((done, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", done);
  }).catch((error) => {
    if (error.code === "EADDRINUSE") {
      fail(
        `port ${port} is in use (a registry started before?): stop it, or pass --port N (0 picks a free one)`,
      );
    }
    throw error;
  });
}

/** Fails now, before the storage is touched, when `port` is taken (a running registry may use it). */
async function checkPortFree(port) {
  const probe = createServer();
  await listen(probe, port);
  await new Promise((done) => probe.close(done));
}

/** Starts Verdaccio in this process on 127.0.0.1:`port`; resolves with its address once it listens. */
async function startVerdaccio(config, port) {
  const { runServer } = createRequire(import.meta.url)("verdaccio");
  const server = await runServer(config);
  await listen(server, port);
  return { server, url: `http://127.0.0.1:${server.address().port}/` };
}

/** Registers the publisher, as `npm adduser` does, and returns an .npmrc holding its token. */
async function publisherNpmrc(url, storage) {
  const response = await fetch(`${url}-/user/org.couchdb.user:vf-publisher`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "vf-publisher", password: "vf-local-registry" }),
  });
  const body = await response.json();
  if (!response.ok || !body.token)
    throw new Error(`Verdaccio refused the publisher: ${JSON.stringify(body)}`);
  const npmrc = join(storage, "publisher.npmrc");
  writeFileSync(npmrc, `//${new URL(url).host}/:_authToken=${body.token}\n`, { mode: 0o600 });
  return npmrc;
}

/** `npm publish` of every package, a few at a time, to `url` only. */
async function publishAll(dirs, url, npmrc) {
  // npm run hands its own settings down as npm_config_* variables (a registry among them): not here.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([key]) => !/^npm_config_/i.test(key) || /^npm_config_cache$/i.test(key),
    ),
  );
  const run = promisify(execFile);
  const queue = [...dirs];
  const worker = async () => {
    for (let dir = queue.shift(); dir !== undefined; dir = queue.shift()) {
      // Built already: --ignore-scripts skips each package's prepack, which would build it again.
      await run("npm", ["publish", "--ignore-scripts", "--registry", url, "--userconfig", npmrc], {
        cwd: dir,
        env,
        maxBuffer: 16 * 1024 * 1024,
      }).catch((error) =>
        fail(`npm publish in ${relative(root, dir)} failed: ${error.stderr || error.message}`),
      );
      process.stderr.write(`published ${relative(root, dir)}\n`);
    }
  };
  await Promise.all(Array.from({ length: PUBLISH_CONCURRENCY }, worker));
}

const options = parseOptions();
await checkPortFree(options.port);
const dirs = publishedPackages();
process.stderr.write("building every package (scripts/build.mjs)...\n");
execFileSync(process.execPath, [join(root, "scripts", "build.mjs")], { stdio: ["ignore", 2, 2] });
const { server, url } = await startVerdaccio(writeConfig(options.storage), options.port);
await publishAll(dirs, url, await publisherNpmrc(url, options.storage));
const { version } = JSON.parse(readFileSync(join(root, "packages", "cli", "package.json"), "utf8"));
process.stdout.write(
  [
    `vf ${version} (${dirs.length} packages) is on a local npm registry at ${url} until Ctrl-C.`,
    "Install it in a project of yours (vf is not on the public npm registry yet):",
    `  npm install -D @vf-rl/cli --registry ${url}`,
    "",
  ].join("\n"),
);

const stop = () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
};
process.once("SIGINT", stop);
process.once("SIGTERM", stop);

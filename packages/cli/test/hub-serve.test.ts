// `vf hub serve` as a user runs it: a fresh Hub prints its first user once, `vf login` is approved on the
// Hub's web page, Ctrl-C stops it cleanly; then `vf hub user create` on the stopped Hub's data, and a
// restarted Hub that prints no first user, where vf hub user create points to itself with --hub URL.
// One Hub (one data folder), started twice.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runVf, VF_BIN } from "@vf-rl/test-support";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";

vi.setConfig({ testTimeout: 120_000 });

const root = mkdtempSync(join(tmpdir(), "vf-hub-serve-"));
const dataDir = join(root, "hub-data");
const userEnv: NodeJS.ProcessEnv = {
  HOME: join(root, "home"),
  VF_HOME: join(root, "vf-home"),
  XDG_CONFIG_HOME: join(root, "config"),
  NO_COLOR: "1",
};
const running: Running[] = [];

beforeAll(() => {
  delete process.env.VF_API_KEY;
  delete process.env.VF_HUB_URL;
  delete process.env.DATABASE_URL;
});
afterEach(async () => {
  // A failed test must not leave a Hub holding the data folder.
  for (const child of running.splice(0)) await child.stop();
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A vf process that keeps running, whose output the test reads as it comes. */
interface Running {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** Resolves with the first match of `pattern` in stdout or stderr. */
  waitFor(pattern: RegExp): Promise<RegExpMatchArray>;
  /** Sends SIGINT (once) and resolves with the exit code. */
  stop(): Promise<number | null>;
  exited: Promise<number | null>;
}

function start(args: string[], env: NodeJS.ProcessEnv = {}): Running {
  const child = spawn(process.execPath, [VF_BIN, ...args], {
    cwd: root,
    env: { ...process.env, ...userEnv, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  const waiters: Array<() => void> = [];
  const wake = () => {
    for (const waiter of waiters.splice(0)) waiter();
  };
  child.stdout!.on("data", (chunk: Buffer) => {
    out += chunk.toString();
    wake();
  });
  child.stderr!.on("data", (chunk: Buffer) => {
    err += chunk.toString();
    wake();
  });
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  let closed = false;
  void exited.then(() => {
    closed = true;
    wake();
  });
  const handle: Running = {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    async waitFor(pattern) {
      for (;;) {
        const match = pattern.exec(out) ?? pattern.exec(err);
        if (match) return match;
        if (closed)
          throw new Error(`vf ${args.join(" ")} exited before printing ${pattern}:\n${out}\n${err}`);
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
    async stop() {
      if (!closed) child.kill("SIGINT");
      return exited;
    },
  };
  running.push(handle);
  return handle;
}

/** Signs in on the Hub's web page as `name` and approves the browser login with `code`. */
async function approveInBrowser(url: string, name: string, password: string, code: string): Promise<void> {
  const signIn = await fetch(`${url}/login`, {
    method: "POST",
    body: new URLSearchParams({ name, password, next: "/" }),
    redirect: "manual",
  });
  expect(signIn.status).toBe(303);
  const cookie = signIn.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const page = await fetch(`${url}/login/device?code=${code}`, { headers: { cookie } });
  const html = await page.text();
  expect(html).toContain(code);
  const csrf = /name="csrf" value="([^"]+)"/.exec(html)![1]!;
  const approved = await fetch(`${url}/login/device`, {
    method: "POST",
    headers: { cookie },
    body: new URLSearchParams({ csrf, code, decision: "approve" }),
  });
  expect(await approved.text()).toContain("Login approved");
}

describe("vf hub serve", () => {
  it("prints the first user once, takes a browser login, and stops cleanly on Ctrl-C", async () => {
    const hub = start(["hub", "serve", "--data", dataDir, "--port", "0"]);
    const [, url] = await hub.waitFor(/^(http:\/\/127\.0\.0\.1:\d+)$/m);
    const [, password] = await hub.waitFor(/^ {2}password {2}(\S+)$/m);
    const [, key] = await hub.waitFor(/^ {2}API key {3}(vf_\S+)$/m);
    await hub.waitFor(new RegExp(`^log in with: (npx )?vf login --key --hub ${url}$`, "m"));
    expect(existsSync(join(dataDir, "hub.lock"))).toBe(true);

    const whoami = await runVf(["whoami", "--hub", url!], { env: { ...userEnv, VF_API_KEY: key } });
    expect(whoami.stdout).toContain(`admin (admin) on ${url}`);

    const login = start(["login", "--hub", url!]);
    const [, verification, code] = await login.waitFor(
      /open (\S+)\nand approve the login; the page shows the code (\S+)/,
    );
    expect(verification).toBe(`${url}/login/device?code=${code}`);
    await approveInBrowser(url!, "admin", password!, code!);
    expect(await login.exited).toBe(0);
    expect(login.stdout()).toContain(`logged in to ${url} as admin`);
    const config = JSON.parse(readFileSync(join(userEnv.XDG_CONFIG_HOME!, "vf", "config.json"), "utf8"));
    expect(config).toMatchObject({ hub_url: url, user: "admin", api_key: expect.stringMatching(/^vf_/) });
    expect(config.api_key).not.toBe(key);

    const keys = await runVf(["hub", "keys", "--hub", url!], { env: userEnv });
    expect(keys.stdout).toMatch(/^PREFIX\s+SCOPE\s+STATE/m);
    expect(keys.stdout).toMatch(/vf login: vf on /);

    expect(await hub.stop()).toBe(0);
    expect(hub.stderr()).toMatch(/stopped\n$/);
    expect(existsSync(join(dataDir, "hub.lock"))).toBe(false);
  });

  it("creates a user in the stopped Hub's data; a restarted Hub keeps its users and prints no first user", async () => {
    const created = await runVf(["hub", "user", "create", "carol", "--data", dataDir, "--json"], {
      env: userEnv,
    });
    expect(created.code, created.stderr).toBe(0);
    const carol = JSON.parse(created.stdout);
    expect(carol).toMatchObject({ user: "carol", is_admin: false, api_key: expect.stringMatching(/^vf_/) });

    const twice = await runVf(["hub", "user", "create", "carol", "--data", dataDir], { env: userEnv });
    expect(twice.code).toBe(1);
    expect(twice.stderr.trim()).toBe('error: user "carol" already exists: pick another name');

    const hub = start(["hub", "serve", "--data", dataDir, "--port", "0"]);
    const [, url] = await hub.waitFor(/^(http:\/\/127\.0\.0\.1:\d+)$/m);
    await hub.waitFor(/press Ctrl-C to stop/);
    expect(hub.stdout()).not.toContain("first user");

    const whoami = await runVf(["whoami", "--hub", url!, "--json"], {
      env: { ...userEnv, VF_API_KEY: carol.api_key },
    });
    expect(JSON.parse(whoami.stdout)).toMatchObject({ user: { name: "carol", is_admin: false } });

    // With the Hub running, its data is locked: the hint is the same command through that Hub.
    const busy = await runVf(["hub", "user", "create", "dave", "--data", dataDir], { env: userEnv });
    expect(busy.code).toBe(1);
    expect(busy.stderr).toMatch(
      /^error: the Hub data in .* is in use by a running Hub \(process \d+\): create the user through it with (npx )?vf hub user create dave --hub URL \(the URL vf hub serve printed; vf login there as an admin first\), or stop that Hub and run this again$/m,
    );
    expect(busy.stderr).not.toContain("/api/");
    // the admin's key from vf login in the first test
    const admin = JSON.parse(readFileSync(join(userEnv.XDG_CONFIG_HOME!, "vf", "config.json"), "utf8"));
    const through = await runVf(["hub", "user", "create", "dave", "--hub", url!, "--json"], {
      env: { ...userEnv, VF_API_KEY: admin.api_key },
    });
    expect(through.code, through.stderr).toBe(0);
    expect(JSON.parse(through.stdout)).toMatchObject({ user: "dave" });
    expect(await hub.stop()).toBe(0);
  });

  it("refuses a port in use with one line", async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      const result = await runVf(["hub", "serve", "--data", join(root, "other"), "--port", String(port)], {
        env: userEnv,
      });
      expect(result.code).toBe(1);
      expect(result.stderr.trim()).toBe(
        `error: port ${port} is already in use: pass --port with a free port (or 0 for any)`,
      );
    } finally {
      taken.close();
    }
  });
});

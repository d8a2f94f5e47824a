// Installing an agent CLI into the cache: once however many prepares ask at the same time, in its
// own <name>@<version> folder, over a lock a dead process left; and a registry that cannot be
// reached, a version that does not exist and a version range each give one line saying what to do.
// The npm that counts its installs is a stand-in on PATH; the failures are the real npm's (the
// missing version asks the registry, which CI reaches).
import { spawn } from "node:child_process";
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { UserError } from "@vf-rl/core/errors";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CliInstallError, cliInstallDir, installCli } from "./cli-install.ts";

let scratch: string;
const saved = { ...process.env };
beforeEach(async () => {
  scratch = await mkdtemp(join(tmpdir(), "vf-cli-install-"));
});
afterEach(async () => {
  process.env = { ...saved };
  await rm(scratch, { recursive: true, force: true });
});

/** Puts an `npm` first on PATH that logs each install, takes a while, and leaves a bin behind. */
async function fakeNpm(): Promise<string> {
  const bin = join(scratch, "bin");
  const log = join(scratch, "npm.log");
  await mkdir(bin);
  await writeFile(
    join(bin, "npm"),
    [
      "#!/bin/sh",
      `echo "$*" >> ${log}`,
      "sleep 1",
      'prefix="$3"',
      'mkdir -p "$prefix/node_modules/.bin"',
      'printf "#!/bin/sh\\necho fake-agent\\n" > "$prefix/node_modules/.bin/fake-agent"',
      'chmod +x "$prefix/node_modules/.bin/fake-agent"',
    ].join("\n"),
  );
  await chmod(join(bin, "npm"), 0o755);
  process.env.PATH = `${bin}:${process.env.PATH}`;
  return log;
}

const fake = { name: "fake-agent", package: "@example/fake-agent", version: "1.2.3" };

describe("installing an agent CLI", () => {
  it("installs once into <cacheDir>/<name>@<version> however many prepares ask at once", async () => {
    const log = await fakeNpm();
    const cacheDir = join(scratch, "cache");
    const dirs = await Promise.all(Array.from({ length: 4 }, () => installCli({ cacheDir, ...fake })));
    expect(new Set(dirs)).toEqual(new Set([join(cacheDir, "fake-agent@1.2.3")]));
    expect(cliInstallDir({ cacheDir, ...fake })).toBe(join(cacheDir, "fake-agent@1.2.3"));
    const installs = (await readFile(log, "utf8")).trim().split("\n");
    expect(installs).toHaveLength(1);
    expect(installs[0]).toMatch(/^install --prefix \S+ .*@example\/fake-agent@1\.2\.3$/);
    // Installed whole: the bin is there, and neither the scratch folder nor the lock is left.
    expect(await readdir(join(dirs[0]!, "node_modules", ".bin"))).toEqual(["fake-agent"]);
    expect(await readdir(cacheDir)).toEqual(["fake-agent@1.2.3"]);
    // A later prepare finds it.
    await installCli({ cacheDir, ...fake });
    expect((await readFile(log, "utf8")).trim().split("\n")).toHaveLength(1);
  });

  it("takes over a lock its holder left when it died, and replaces a folder an install left unfinished", async () => {
    const log = await fakeNpm();
    const cacheDir = join(scratch, "cache");
    const dir = cliInstallDir({ cacheDir, ...fake });
    await mkdir(`${dir}.lock`, { recursive: true });
    await writeFile(join(`${dir}.lock`, "pid"), String(await deadPid()));
    await mkdir(join(dir, "node_modules"), { recursive: true });
    await installCli({ cacheDir, ...fake });
    expect((await readFile(log, "utf8")).trim().split("\n")).toHaveLength(1);
    expect(await readdir(join(dir, "node_modules", ".bin"))).toEqual(["fake-agent"]);
  });

  it("says in one line that the npm registry cannot be reached", async () => {
    process.env.npm_config_registry = "http://127.0.0.1:9/";
    process.env.npm_config_fetch_retries = "0";
    process.env.npm_config_cache = join(scratch, "npm-cache");
    const error = await installCli({
      cacheDir: join(scratch, "cache"),
      name: "is-number",
      package: "is-number",
      version: "7.0.0",
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CliInstallError);
    expect(error).toBeInstanceOf(UserError);
    const message = (error as Error).message;
    expect(message).toBe(
      "cannot install is-number@7.0.0: the npm registry cannot be reached (ECONNREFUSED); connect this machine to the registry (npm config get registry), or prepare the harness once where there is one and copy the cache folder",
    );
    expect(await readdir(join(scratch, "cache"))).toEqual([]);
  });

  it("says in one line why npm failed otherwise (a version the registry does not have)", async () => {
    const error = await installCli({
      cacheDir: join(scratch, "cache"),
      name: "is-number",
      package: "is-number",
      version: "999.0.0",
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CliInstallError);
    expect((error as Error).message).toBe(
      "cannot install is-number@999.0.0: npm exited with 1: notarget No matching version found for is-number@999.0.0; run the same npm install by hand to see the whole error",
    );
  });

  it("refuses a version that is not exact", async () => {
    await expect(
      installCli({ cacheDir: join(scratch, "cache"), name: "pi", package: "pi", version: "^1.0.0" }),
    ).rejects.toThrow('pi\'s version "^1.0.0" is not an exact version: pin one, e.g. 1.2.3');
  });
});

/** The pid of a process that has ended. */
function deadPid(): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn("true");
    child.on("exit", () => resolve(child.pid!));
  });
}

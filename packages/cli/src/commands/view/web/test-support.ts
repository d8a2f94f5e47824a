/**
 * For the web viewer's tests: headless Chromium (playwright-core driving Debian's chromium, kept off
 * the network) and `vf view --web` started as the real binary, read until it prints its URL.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { VF_BIN } from "@vf-rl/test-support";
import { type BrowserContext, chromium } from "playwright-core";

const CHROMIUM = "/usr/bin/chromium";

export interface TestBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** Headless Chromium on a fresh profile; throws saying what to install when it is absent. */
export async function launchBrowser(): Promise<TestBrowser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`Chromium is missing at ${CHROMIUM}: apt-get install -y chromium`);
  const profile = mkdtempSync(join(tmpdir(), "vf-view-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1280, height: 860 },
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** A `vf view --web` process: its URL, and `stop` (Ctrl-C) resolving with its exit code and stderr. */
export interface ViewProcess {
  url: string;
  stop(): Promise<{ code: number | null; stderr: string }>;
}

export function startViewWeb(args: string[]): Promise<ViewProcess> {
  const child: ChildProcess = spawn(process.execPath, [VF_BIN, "view", "--web", ...args], {
    env: { ...process.env, NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  const exited = new Promise<{ code: number | null; stderr: string }>((resolve) =>
    child.on("close", (code) => resolve({ code, stderr })),
  );
  child.stderr!.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`vf view --web printed no URL in 60 s:\n${stderr}`));
    }, 60_000);
    child.stdout!.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      const url = stdout.match(/^(http:\/\/\S+)\n/m)?.[1];
      if (!url) return;
      clearTimeout(timer);
      resolve({
        url,
        stop() {
          child.kill("SIGINT");
          return exited;
        },
      });
    });
    void exited.then(({ code }) => {
      clearTimeout(timer);
      reject(new Error(`vf view --web exited (${code}) before printing its URL:\n${stderr}`));
    });
  });
}

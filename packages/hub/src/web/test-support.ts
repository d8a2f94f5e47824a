/**
 * Headless Chromium for the web page tests, through playwright-core and Debian's chromium (no browser
 * download). Flags keep it off the network: this machine's network is closed, and Chromium's
 * background services would otherwise try (and fail) to reach Google at every start.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type BrowserContext, chromium } from "playwright-core";

/** Where Debian's chromium package puts the browser. */
export const CHROMIUM = "/usr/bin/chromium";

/** Folder for the screenshots the tests save (gitignored): packages/hub/test-output. */
export const SCREENSHOT_DIR = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "test-output");

/** A launched browser (one context on a fresh profile) and a cleanup that also removes the profile. */
export interface TestBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** Launches headless Chromium with a fresh profile; throws saying what to install when it is absent. */
export async function launchTestBrowser(): Promise<TestBrowser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`Chromium is missing at ${CHROMIUM}: apt-get install -y chromium`);
  const profile = mkdtempSync(join(tmpdir(), "vf-chromium-"));
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  // Playwright takes the profile folder as an argument of its own, in place of --user-data-dir.
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1280, height: 900 },
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
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

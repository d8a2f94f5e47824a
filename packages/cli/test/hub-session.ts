/**
 * What the tests of vf's Hub commands start from: a Hub on loopback (its first user, admin, made at
 * start) and a throwaway project that links vf's packages. `vf` runs the real binary in the project
 * as admin, logged in by key, with a home, config and managed folder of the test's own.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type RunningHub, startHub } from "@vf-rl/hub";
import { HubClient } from "@vf-rl/hub/client";
import { runVf, type VfResult } from "@vf-rl/test-support";
import { type TempProject, tempProject } from "./temp-project.ts";

export interface HubSession {
  hub: RunningHub;
  /** The Hub's API as admin. */
  admin: HubClient;
  project: TempProject;
  /** `vf ARGS` in the project, as admin. */
  vf(args: string[]): Promise<VfResult>;
  /** What `vf` runs with: the Hub, admin's key, and the test's own home, config and managed folder. */
  env: NodeJS.ProcessEnv;
  /** Stops the Hub and removes every folder. */
  close(): Promise<void>;
}

export async function startHubSession(): Promise<HubSession> {
  const root = mkdtempSync(join(tmpdir(), "vf-hub-session-"));
  delete process.env.DATABASE_URL;
  const hub = await startHub({ dataDir: join(root, "hub"), port: 0 });
  const apiKey = hub.bootstrap!.apiKey;
  const project = await tempProject();
  const env = {
    HOME: join(root, "home"),
    VF_HOME: join(root, "vf-home"),
    XDG_CONFIG_HOME: join(root, "config"),
    VF_HUB_URL: hub.url,
    VF_API_KEY: apiKey,
  };
  return {
    hub,
    admin: new HubClient({ url: hub.url, apiKey }),
    project,
    vf: (args) => runVf(args, { cwd: project.dir, env }),
    env,
    close: async () => {
      await hub.close();
      await project.remove();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

// `vf eval --push` checks the Hub before it evaluates: an environment the Hub does not hold, or a
// local copy whose exact content was never pushed, stops the command before the first model call,
// in one line that says how to push it. A real Hub on loopback, the real vf binary.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type ScriptedServer, startScriptedServer } from "@vf-rl/core/testing";
import type { HubClient } from "@vf-rl/hub/client";
import type { VfResult } from "@vf-rl/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HubSession, startHubSession } from "./hub-session.ts";
import type { TempProject } from "./temp-project.ts";

let session: HubSession;
let project: TempProject;
let admin: HubClient;
let model: ScriptedServer;

beforeAll(async () => {
  session = await startHubSession();
  ({ project, admin } = session);
  model = await startScriptedServer({ reply: () => "<answer>Paris</answer>" });
  expect((await vf(["init", "capitals"])).code).toBe(0);
}, 120_000);
afterAll(async () => {
  await model.close();
  await session.close();
});

const vf = (args: string[]) => session.vf(args);

const evalPush = () =>
  vf(["eval", "capitals", "-m", "scripted", "-b", model.url, "-n", "2", "-r", "1", "--push"]);

/** A failed command: exit 1, one `error:` line matching `pattern`, no stack, no model call. */
function expectRefusedBeforeRunning(result: VfResult, pattern: RegExp, callsBefore: number): void {
  expect(result.code, result.stderr).toBe(1);
  const lines = result.stderr.trim().split("\n");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^error: /);
  expect(lines[0]).toMatch(pattern);
  expect(model.requests).toHaveLength(callsBefore);
}

describe("vf eval --push checks the Hub first", { timeout: 120_000 }, () => {
  it("refuses an environment the Hub does not hold, before any model call, saying how to push it", async () => {
    const result = await evalPush();
    expectRefusedBeforeRunning(
      result,
      /admin\/capitals is not on the Hub at .*: push the environment first with (npx )?vf env push environments\/capitals, then run the evaluation again/,
      0,
    );
  });

  it("refuses a local copy whose content the Hub does not hold, then evaluates and uploads once it is pushed", async () => {
    const pushed = await vf(["env", "push", "environments/capitals"]);
    expect(pushed.code, pushed.stderr).toBe(0);
    writeFileSync(
      join(project.dir, "environments", "capitals", "README.md"),
      "# capitals\n\nEdited after the push.\n",
    );

    const stale = await evalPush();
    expectRefusedBeforeRunning(
      stale,
      /has no version of admin\/capitals with the content of environments\/capitals \(content hash [0-9a-f]{12}; its latest is 0\.1\.0\).*push this version first with (npx )?vf env push environments\/capitals/,
      0,
    );

    const bumped = await vf(["env", "push", "environments/capitals", "--bump", "patch"]);
    expect(bumped.code, bumped.stderr).toBe(0);
    const evaluated = await evalPush();
    expect(evaluated.code, evaluated.stderr).toBe(0);
    expect(evaluated.stderr).toMatch(/report \d+: admin\/capitals@0\.1\.1 with scripted, 2 rollouts/);
    expect(model.requests).toHaveLength(2);
    const reports = await admin.listReports("admin", "capitals");
    expect(reports.items.map((r) => r.version)).toEqual(["0.1.1"]);
  });
});

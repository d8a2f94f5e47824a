// `vf eval -f/--fullscreen` in a real terminal (tmux): the live display takes the alternate screen
// while the run goes on, and the user's screen comes back, with the summary after it, when the
// run is done (q), interrupted (Ctrl-C) or failed.
import { type ScriptedServer, startScriptedServer } from "@vf-rl/core/testing";
import { runVf } from "@vf-rl/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ITEMS_ENV, writeEnvironment } from "./fixture-envs.ts";
import { type TempProject, tempProject } from "./temp-project.ts";
import { startVfInTmux } from "./terminal.ts";

const ENTER_ALTERNATE = "\x1b[?1049h";
const LEAVE_ALTERNATE = "\x1b[?1049l";
const BEFORE = "the user's screen before vf";

let project: TempProject;
let model: ScriptedServer;

beforeAll(async () => {
  project = await tempProject();
  await writeEnvironment(project.dir, "items", ITEMS_ENV);
  model = await startScriptedServer({ latencySeconds: 0.2 });
});
afterAll(async () => {
  await model.close();
  await project.remove();
});

const evalArgs = (url: string, flags: string[]) => ["eval", "items", "-m", "scripted", "-b", url, ...flags];

/** The part of `output` after `marker`, which must be there. */
function after(output: string, marker: string): string {
  expect(output).toContain(marker);
  return output.slice(output.indexOf(marker) + marker.length);
}

// The pane waits are up to 120 s each (terminal.ts): a loaded machine can take more than the
// default 30 s to start vf and draw its screens.
describe("-f/--fullscreen", { timeout: 240_000 }, () => {
  it("runs in the alternate screen, and leaves it on q with the summary printed after", async () => {
    const vf = await startVfInTmux(evalArgs(model.url, ["-n", "6", "-r", "1", "-c", "1", "-f"]), {
      cwd: project.dir,
      before: BEFORE,
    });
    try {
      const running = await vf.waitForScreen(/^vf eval items · Ctrl-C stops/m);
      expect(running).not.toContain(BEFORE);
      expect(await vf.alternateOn()).toBe(true);
      const done = await vf.waitForScreen(/press q or Enter to leave/);
      expect(done).toMatch(/^items done · 6\/6 rollouts/m);
      expect(await vf.alternateOn()).toBe(true);

      await vf.sendKeys("q");
      const { code, output, raw } = await vf.exited();
      expect(code).toBe(0);
      expect(await vf.alternateOn()).toBe(false);
      // The user's screen as it was, then what vf printed, the summary and the last board.
      const printed = after(output, BEFORE);
      expect(printed).toMatch(/^evaluating items with scripted/m);
      expect(after(printed, "--- Evaluation ---")).toContain("reward: avg - 1, std - 0");
      expect(after(printed, "reward: avg - 1")).toMatch(/^items done · 6\/6 rollouts/m);
      expect(printed).not.toContain("press q");
      expect(after(raw, ENTER_ALTERNATE)).toContain(LEAVE_ALTERNATE);
      expect(after(raw, LEAVE_ALTERNATE)).toContain("--- Evaluation ---");
    } finally {
      await vf.close();
    }
  });

  it("gives the screen back on Ctrl-C, keeping the finished rollouts", async () => {
    const slow = await startScriptedServer({ latencySeconds: 1 });
    const vf = await startVfInTmux(evalArgs(slow.url, ["-n", "30", "-r", "1", "-c", "1", "-f"]), {
      cwd: project.dir,
      before: BEFORE,
    });
    try {
      await vf.waitForScreen(/^items \S+ [1-9]\d*\/30 rollouts/m);
      expect(await vf.alternateOn()).toBe(true);
      await vf.sendKeys("C-c");
      const { code, output, raw } = await vf.exited();
      expect(code).toBe(130);
      expect(await vf.alternateOn()).toBe(false);
      const printed = after(output, BEFORE);
      expect(printed).toContain("stopping: keeping finished rollouts");
      expect(printed).toContain("--- Evaluation ---");
      expect(printed).toMatch(/^interrupted: \d+ finished rollouts kept/m);
      expect(after(raw, ENTER_ALTERNATE)).toContain(LEAVE_ALTERNATE);
    } finally {
      await vf.close();
      await slow.close();
    }
  });

  it("gives the screen back when the run fails, with the error after it", async () => {
    const broken = await startScriptedServer({
      reply: () => ({ type: "error", status: 500, message: "broken" }),
    });
    const vf = await startVfInTmux(evalArgs(broken.url, ["-n", "3", "-r", "1", "--max-retries", "0", "-f"]), {
      cwd: project.dir,
      before: BEFORE,
    });
    try {
      const { code, output, raw } = await vf.exited();
      expect(code).toBe(1);
      expect(await vf.alternateOn()).toBe(false);
      expect(after(output, BEFORE)).toMatch(/^error: every one of the 3 rollouts failed/m);
      expect(after(after(raw, ENTER_ALTERNATE), LEAVE_ALTERNATE)).toContain(
        "every one of the 3 rollouts failed",
      );
    } finally {
      await vf.close();
      await broken.close();
    }
  });

  it("changes nothing off a terminal, and is refused with -d", async () => {
    const piped = await runVf(evalArgs(model.url, ["-n", "2", "-r", "1", "-f"]), { cwd: project.dir });
    expect(piped.code).toBe(0);
    expect(piped.stdout).toContain("reward: avg - 1, std - 0");
    expect(piped.stderr).not.toContain(ENTER_ALTERNATE);

    const both = await runVf(evalArgs(model.url, ["-f", "-d"]), { cwd: project.dir });
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/-f\/--fullscreen shows the live display, -d\/--disable-tui turns it off/);
  });
});

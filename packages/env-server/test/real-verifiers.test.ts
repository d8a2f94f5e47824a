/**
 * python/vf-bridge against the real verifiers and prime-rl, from checkouts: their loader, v1
 * EnvClient, prime-rl's config classes, orchestrator Env and trainable-branch rule, and verifiers'
 * legacy Environment API, on vf env serve (python/vf-bridge/checks/real_verifiers.py). verifiers
 * cannot be installed in vf's CI (no PyPI), so this runs only where VF_VERIFIERS_DIR names a
 * checkout (and VF_PRIME_RL_DIR one of prime-rl), with VF_BRIDGE_PYTHON a Python that has their
 * dependencies; the bridge's README says how.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const repo = fileURLToPath(new URL("../../..", import.meta.url));
const verifiers = process.env.VF_VERIFIERS_DIR;
const primeRl = process.env.VF_PRIME_RL_DIR;
const python = process.env.VF_BRIDGE_PYTHON ?? "python3";

describe.skipIf(!verifiers)("vf-bridge against the real verifiers", () => {
  it("passes every check of checks/real_verifiers.py", async () => {
    const args = [
      join(repo, "python", "vf-bridge", "checks", "real_verifiers.py"),
      "--verifiers",
      verifiers!,
    ];
    if (primeRl) args.push("--prime-rl", primeRl);
    const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve) => {
      const child = spawn(python, args, { cwd: repo, stdio: ["ignore", "pipe", "pipe"] });
      let output = "";
      child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
      child.on("close", (exitCode) => resolve({ code: exitCode, output }));
    });
    expect(output).toMatch(/\d+ passed, 0 failed/);
    expect(code, output).toBe(0);
  }, 1_800_000);
});

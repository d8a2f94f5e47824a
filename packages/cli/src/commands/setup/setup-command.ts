/**
 * `vf setup [DIR]`: writes a workspace's starting files. A file that exists with other content is
 * the user's and is kept unless --force; the command says what it wrote, kept or left unchanged.
 */
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { Command } from "commander";
import { makeOutputFolder } from "../../path-checks.ts";
import type { Output } from "../../terminal/output.ts";

export type SetupOutcome = "wrote" | "unchanged" | "kept" | "overwrote";

export async function setupWorkspace(
  dir: string,
  force: boolean,
): Promise<Array<{ path: string; outcome: SetupOutcome }>> {
  const { workspaceFiles } = await import("./workspace-files.ts");
  const results: Array<{ path: string; outcome: SetupOutcome }> = [];
  for (const file of await workspaceFiles()) {
    const target = join(dir, file.path);
    let outcome: SetupOutcome = "wrote";
    if (existsSync(target)) {
      const current = await readFile(target, "utf8");
      if (current === file.content) outcome = "unchanged";
      else outcome = force ? "overwrote" : "kept";
    }
    if (outcome === "wrote" || outcome === "overwrote") {
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, file.content);
    }
    results.push({ path: file.path, outcome });
  }
  return results;
}

export function registerSetup(program: Command, io: Output): void {
  program
    .command("setup")
    .description("write a workspace's starting files: endpoints, eval and training configs")
    .argument("[dir]", "the workspace folder", ".")
    .option("--force", "overwrite files you changed")
    .addHelpText(
      "after",
      `
Writes:
  configs/endpoints.toml        commented examples: OpenAI, a local vLLM, vf serve
  configs/eval/<env>.toml       one eval config per bundled environment
  configs/train/*.toml          the shipped training configs
Files you changed are kept unless --force.`,
    )
    .action(async (dir: string, flags: { force?: boolean }) => {
      await makeOutputFolder(dir, { label: "the workspace folder", fix: "name a folder you can write" });
      const results = await setupWorkspace(dir, Boolean(flags.force));
      for (const { path, outcome } of results) {
        const note = outcome === "kept" ? " (you changed it; --force to overwrite)" : "";
        io.out(`${outcome.padEnd(9)} ${join(dir, path)}${note}`);
      }
    });
}

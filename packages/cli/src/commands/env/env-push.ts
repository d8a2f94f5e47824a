/**
 * `vf env push [DIR]`: publishes the environment package in DIR as a new version, or answers
 * "already at version X" (exit 0) when the Hub has this exact content. It sends the files `npm pack`
 * would pack there (package.json `files`, .npmignore, npm's always-included and always-excluded
 * files), less dot-files, node_modules and outputs/. `--bump` raises the version in package.json
 * first when the content changed; `--dry-run` lists what would be sent. Before either, the package
 * must load as vf would load it, an environment or a taskset (push-load-check.ts; `--no-load-check`
 * skips that).
 */
import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { UserError } from "@vf-rl/core/errors";
import { type Command, Option } from "commander";
import type { Output } from "../../terminal/output.ts";
import { vfCommand } from "../../vf-command.ts";
import { formatBytes, shortHash, textTable } from "../hub/format-listing.ts";
import { connectHub, type HubFlags, loadHubClient, withHubFlags } from "../hub/hub-flags.ts";
import { checkLoads } from "./push-load-check.ts";

interface PushFlags extends HubFlags {
  visibility?: "public" | "private";
  bump?: "patch" | "minor";
  dryRun?: boolean;
  owner?: string;
  json?: boolean;
  /** False with `--no-load-check`. */
  loadCheck: boolean;
}

/** Registers `vf env push`. */
export function registerEnvPush(env: Command, io: Output): void {
  withHubFlags(
    env
      .command("push")
      .description("publish a package as a new version (same content: no-op)")
      .argument("[dir]", "the package folder", ".")
      .addOption(
        new Option("--visibility <v>", "public (default for a new environment) or private").choices([
          "public",
          "private",
        ]),
      )
      .addOption(
        new Option("--bump <part>", "raise package.json's version first, when the content changed").choices([
          "patch",
          "minor",
        ]),
      )
      .option(
        "--dry-run",
        "list the files (those npm pack would pack) and version that would be pushed; send nothing",
      )
      .option("--owner <name>", "push under this owner (default: your user)")
      .option(
        "--no-load-check",
        "push without first loading the environment or taskset (e.g. it needs secrets to load)",
      )
      .option("--json", "print the outcome as JSON"),
  )
    .addHelpText(
      "after",
      `
Examples:
  vf env push environments/my-env               first push: my-env@<package.json version>
  vf env push environments/my-env --bump patch  after a change: 0.1.0 → 0.1.1, then push
  vf env push --dry-run                         what would be sent from this folder
  vf env push --visibility private              only you (and your keys) can see it`,
    )
    .action(async (dir: string, flags: PushFlags) => {
      const folder = resolve(dir);
      if (!existsSync(folder) || !statSync(folder).isDirectory()) {
        throw new UserError(
          `${folder} is not a folder: pass an environment's (or taskset's) package folder, e.g. vf env push environments/my-env`,
        );
      }
      const hub = await loadHubClient();
      const client = await connectHub(flags);
      let outcome: Awaited<ReturnType<typeof hub.pushEnvironment>>;
      try {
        outcome = await hub.pushEnvironment({
          client,
          dir: folder,
          dryRun: Boolean(flags.dryRun),
          ...(flags.loadCheck ? { check: checkLoads } : {}),
          ...(flags.visibility ? { visibility: flags.visibility } : {}),
          ...(flags.bump ? { bump: flags.bump } : {}),
          ...(flags.owner ? { owner: flags.owner } : {}),
        });
      } catch (error) {
        if (
          error instanceof hub.HubError &&
          (error.code === "validation_failed" || error.code === "invalid_package")
        ) {
          throw new hub.HubError(error.code, `cannot push ${folder}: ${error.message}`, error.details);
        }
        throw error;
      }
      if (flags.json) {
        io.out(JSON.stringify(outcome));
        return;
      }
      switch (outcome.type) {
        case "dry-run": {
          const rows = outcome.files.map((f) => [formatBytes(f.size), f.path]);
          for (const line of textTable(["SIZE", "FILE"], rows)) io.out(line);
          io.out(
            `would push ${outcome.id}@${outcome.version}: ${outcome.files.length} files, ${formatBytes(outcome.tarballBytes)} packed, content ${shortHash(outcome.contentHash)}`,
          );
          return;
        }
        case "created": {
          if (outcome.bumpedFrom) {
            io.err(
              `version ${outcome.bumpedFrom} → ${outcome.version} in ${resolve(folder, "package.json")}`,
            );
          }
          const visibility = outcome.result.env.visibility;
          io.out(
            `pushed ${outcome.id}@${outcome.version} (${visibility}, content ${shortHash(outcome.contentHash)})`,
          );
          io.out(`install it with: ${vfCommand(`env install ${outcome.id}@${outcome.version}`)}`);
          return;
        }
        case "unchanged":
          io.out(outcome.message);
          return;
      }
    });
}

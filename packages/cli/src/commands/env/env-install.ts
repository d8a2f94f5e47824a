/**
 * `vf env install owner/name[@version|@hash|@latest]...`: downloads, verifies (sha256) and installs
 * environments into the current project's node_modules, or into vf's managed folder outside any
 * project, so `vf eval owner/name` finds them from anywhere.
 */
import { relative } from "node:path";
import type { Command } from "commander";
import type { Output } from "../../terminal/output.ts";
import { shortHash } from "../hub/format-listing.ts";
import { connectHub, type HubFlags, loadHubClient, withHubFlags } from "../hub/hub-flags.ts";
import { provideHostPeers } from "./host-peers.ts";

interface InstallFlags extends HubFlags {
  global?: boolean;
  save: boolean;
  json?: boolean;
}

/** Registers `vf env install`. */
export function registerEnvInstall(env: Command, io: Output): void {
  withHubFlags(
    env
      .command("install")
      .description("install environments where vf eval finds them")
      .argument("<ids...>", "owner/name, owner/name@1.2.0, owner/name@<hash> or owner/name@latest")
      .option("-g, --global", "install into vf's managed folder even inside a project")
      .option("--no-save", "do not record the dependency in package.json")
      .option("--json", "print what was installed as JSON"),
  )
    .addHelpText(
      "after",
      `
Inside a project (a folder with package.json, or below one) it installs into ./node_modules and
records the dependency; elsewhere into $VF_HOME/envs (default ~/.vf/envs).

Examples:
  vf env install ada/gsm8k                      the latest version
  vf env install ada/gsm8k@1.2.0                a version label
  vf env install ada/gsm8k@3f9a2c1b7d4e         a content hash (or its first 8+ digits)
  vf env install ada/gsm8k -g && vf eval ada/gsm8k -n 5`,
    )
    .action(async (ids: string[], flags: InstallFlags) => {
      const { managedEnvironmentsDir } = await import("@vf-rl/core/loading");
      const hub = await loadHubClient();
      const client = await connectHub(flags);
      const installed = [];
      for (const spec of ids) {
        const result = await hub.installEnvironment({
          client,
          spec,
          cwd: process.cwd(),
          global: Boolean(flags.global),
          save: flags.save,
        });
        if (result.where === "managed") {
          const peers = provideHostPeers(managedEnvironmentsDir(), result.dir);
          for (const name of peers.missing) {
            io.err(
              `warning: ${result.id} expects "${name}" from its host and vf has no copy: install it in ${managedEnvironmentsDir()}`,
            );
          }
        }
        installed.push(result);
        if (!flags.json) {
          const { semver, content_hash } = result.version;
          const where =
            result.where === "project"
              ? relative(process.cwd(), result.dir) || "."
              : `${result.dir} (vf's managed folder)`;
          io.out(`installed ${result.id}@${semver} (content ${shortHash(content_hash)}) into ${where}`);
        }
      }
      if (flags.json) io.out(JSON.stringify(installed));
      else io.err(`run it with: vf eval ${installed[0]!.id}`);
    });
}

/** `vf env uninstall owner/name...`: removes installed environments (see `vf env install`). */
import type { Command } from "commander";
import type { Output } from "../../terminal/output.ts";
import { loadHubClient } from "../hub/hub-flags.ts";

/** Registers `vf env uninstall`. */
export function registerEnvUninstall(env: Command, io: Output): void {
  env
    .command("uninstall")
    .description("remove installed environments")
    .argument("<ids...>", "owner/name")
    .option("-g, --global", "remove from vf's managed folder even inside a project")
    .addHelpText(
      "after",
      `
Inside an npm project it runs npm uninstall (package.json, lockfile and node_modules together);
elsewhere, or with -g, it removes the package from $VF_HOME/envs.

Example:
  vf env uninstall ada/gsm8k`,
    )
    .action(async (ids: string[], flags: { global?: boolean }) => {
      const hub = await loadHubClient();
      for (const spec of ids) {
        const result = await hub.uninstallEnvironment({
          spec,
          cwd: process.cwd(),
          global: Boolean(flags.global),
        });
        const where = result.where === "project" ? "the project" : "vf's managed folder";
        io.out(`uninstalled ${result.id}@${result.version} from ${where}`);
      }
    });
}

/** `vf env pull owner/name[@ref]`: downloads a version's source into a new folder, to read, change and push again. */
import type { Command } from "commander";
import { checkNewFolder } from "../../path-checks.ts";
import type { Output } from "../../terminal/output.ts";
import { connectHub, type HubFlags, loadHubClient, withHubFlags } from "../hub/hub-flags.ts";

/** Registers `vf env pull`. */
export function registerEnvPull(env: Command, io: Output): void {
  withHubFlags(
    env
      .command("pull")
      .description("download an environment's source into a new folder")
      .argument("<id>", "owner/name[@version|@hash|@latest]")
      .option("-t, --target <dir>", "folder to create (default: ./<name>)")
      .option("--json", "print the folder and version as JSON"),
  )
    .addHelpText(
      "after",
      `
Examples:
  vf env pull ada/gsm8k                         into ./gsm8k
  vf env pull ada/gsm8k@1.2.0 -t environments/gsm8k`,
    )
    .action(async (id: string, flags: HubFlags & { target?: string; json?: boolean }) => {
      const hub = await loadHubClient();
      // Before anything is downloaded: the folder to create must be one that can be.
      await checkNewFolder(flags.target ?? hub.parseEnvSpec(id).name, {
        label: flags.target !== undefined ? "-t" : "the folder",
        fix: "pass -t a new folder in a place you can write",
      });
      const client = await connectHub(flags);
      const pulled = await hub.pullEnvironment({
        client,
        spec: id,
        cwd: process.cwd(),
        ...(flags.target ? { target: flags.target } : {}),
      });
      if (flags.json) {
        io.out(JSON.stringify(pulled));
        return;
      }
      const spec = hub.parseEnvSpec(id);
      io.out(`pulled ${spec.owner}/${spec.name}@${pulled.version.semver} into ${pulled.dir}`);
    });
}

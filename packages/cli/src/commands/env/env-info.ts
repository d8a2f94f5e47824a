/**
 * `vf env info owner/name[@ref]`: an environment's (or taskset's) description, visibility and version
 * (the latest, or the one `@ref` names), with the commands that install and evaluate it: a taskset's
 * through a harness.
 */
import type { Command } from "commander";
import type { Output } from "../../terminal/output.ts";
import { vfCommand } from "../../vf-command.ts";
import { formatBytes } from "../hub/format-listing.ts";
import { connectHub, type HubFlags, loadHubClient, withHubFlags } from "../hub/hub-flags.ts";
import { evalLine } from "./eval-line.ts";

/** Registers `vf env info`. */
export function registerEnvInfo(env: Command, io: Output): void {
  withHubFlags(
    env
      .command("info")
      .description("show an environment, a version and its install command")
      .argument("<id>", "owner/name, or owner/name@<version|hash> for one version")
      .option("--readme", "also print the README")
      .option("--json", "print the environment (and the version asked for) as JSON"),
  )
    .addHelpText(
      "after",
      `
Examples:
  vf env info ada/gsm8k
  vf env info ada/gsm8k@1.2.0 --json | jq .version.content_hash`,
    )
    .action(async (id: string, flags: HubFlags & { readme?: boolean; json?: boolean }) => {
      const hub = await loadHubClient();
      const spec = hub.parseEnvSpec(id);
      const client = await connectHub(flags);
      const info = await client.envInfo(spec.owner, spec.name);
      const version =
        spec.ref === "latest" ? info.latest : await client.version(spec.owner, spec.name, spec.ref);
      if (flags.json) {
        io.out(JSON.stringify({ ...info, version }));
        return;
      }
      const kind = version?.kind ?? info.kind;
      io.out(`${info.id}  (${kind === "taskset" ? "taskset, " : ""}${info.visibility})`);
      if (info.description) io.out(info.description);
      if (info.tags.length > 0) io.out(`tags: ${info.tags.join(", ")}`);
      if (!version) {
        io.out("no versions yet: push one with vf env push");
        return;
      }
      const latest = version.semver === info.latest_version ? " (latest)" : "";
      io.out(
        `version: ${version.semver}${latest}, pushed ${version.created_at.slice(0, 10)} by ${version.pushed_by ?? "(deleted user)"}`,
      );
      io.out(`content: ${version.content_hash}`);
      io.out(`size: ${version.file_count} files, ${formatBytes(version.size)}`);
      io.out(`install: ${vfCommand(`env install ${info.id}@${version.semver}`)}`);
      io.out(`with npm (latest): ${info.install.npm}`);
      io.out(`evaluate: ${evalLine(info.id, kind)}`);
      if (flags.readme && info.readme) io.out(`\n${info.readme.trimEnd()}`);
    });
}

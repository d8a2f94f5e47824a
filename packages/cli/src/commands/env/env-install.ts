/**
 * `vf env install owner/name[@version|@hash|@latest]...`: downloads, verifies (sha256) and installs
 * environments where `vf eval owner/name` finds them: the current npm project (through npm, so
 * `npm ci` reinstalls them from the Hub), or vf's managed folder outside any project or with -g.
 */
import { relative } from "node:path";
import type { HubClient, InstallResult } from "@vf-rl/hub/client";
import type { Command } from "commander";
import type { Output } from "../../terminal/output.ts";
import { shortHash } from "../hub/format-listing.ts";
import { connectHub, type HubFlags, loadHubClient, withHubFlags } from "../hub/hub-flags.ts";
import { evalLine } from "./eval-line.ts";

interface InstallFlags extends HubFlags {
  global?: boolean;
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
      .option("--json", "print what was installed as JSON"),
  )
    .addHelpText(
      "after",
      `
Inside an npm project (a folder with package.json, or below one) it runs npm install, with the
owner's scope sent to the Hub's registry in the project's .npmrc: package.json and the lockfile
record it, and npm ci reinstalls it. Elsewhere it installs into $VF_HOME/envs (default ~/.vf/envs).

Examples:
  vf env install ada/gsm8k                      the latest version
  vf env install ada/gsm8k@1.2.0                a version label
  vf env install ada/gsm8k@3f9a2c1b7d4e         a content hash (or its first 8+ digits)
  vf env install ada/gsm8k -g && vf eval ada/gsm8k -n 5
  vf env uninstall ada/gsm8k                    remove it again`,
    )
    .action(async (ids: string[], flags: InstallFlags) => {
      const hub = await loadHubClient();
      const client = await connectHub(flags);
      const installed: InstallResult[] = [];
      for (const spec of ids) {
        const result = await hub.installEnvironment({
          client,
          spec,
          cwd: process.cwd(),
          global: Boolean(flags.global),
        });
        for (const warning of result.warnings) io.err(`warning: ${warning}`);
        installed.push(result);
        if (!flags.json) describeInstall(result, { client, global: Boolean(flags.global), write: io.out });
      }
      if (flags.json) io.out(JSON.stringify(installed));
      else io.err(`run it with: ${evalLine(installed[0]!.id, installed[0]!.version.kind)}`);
    });
}

/** What was installed and where, as lines to `write`. */
function describeInstall(
  result: InstallResult,
  options: { client: HubClient; global: boolean; write: (line: string) => void },
): void {
  const { semver, content_hash } = result.version;
  const where =
    result.where === "project"
      ? relative(process.cwd(), result.dir) || "."
      : `${result.dir} (vf's managed folder${options.global ? "" : ": no package.json here or above"})`;
  options.write(`installed ${result.id}@${semver} (content ${shortHash(content_hash)}) into ${where}`);
  if (result.replaced !== null && result.replaced !== semver) {
    options.write(`  replaced ${result.id}@${result.replaced}`);
  }
  if (result.scopeAddedTo) {
    options.write(
      `  ${relative(process.cwd(), result.scopeAddedTo) || ".npmrc"} now sends @${result.id.split("/")[0]} to ${options.client.url}/npm/`,
    );
  }
}

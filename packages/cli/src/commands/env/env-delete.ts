/**
 * `vf env delete owner/name[@ref]`: deletes one version, or (without `@ref`) the environment with all
 * its versions and reports. Asks first at a terminal; elsewhere it needs `-y`.
 */
import { createInterface } from "node:readline/promises";
import type { Command } from "commander";
import { UsageError } from "../../cli-errors.ts";
import type { Output } from "../../terminal/output.ts";
import { connectHub, type HubFlags, loadHubClient, withHubFlags } from "../hub/hub-flags.ts";

/** Registers `vf env delete`. */
export function registerEnvDelete(env: Command, io: Output): void {
  withHubFlags(
    env
      .command("delete")
      .description("delete a version, or a whole environment")
      .argument("<id>", "owner/name, or owner/name@<version|hash> for one version")
      .option("-y, --yes", "do not ask for confirmation"),
  )
    .addHelpText(
      "after",
      `
Examples:
  vf env delete ada/gsm8k@1.2.0                 one version
  vf env delete ada/gsm8k -y                    the environment, its versions and reports`,
    )
    .action(async (id: string, flags: HubFlags & { yes?: boolean }) => {
      const hub = await loadHubClient();
      const spec = hub.parseEnvSpec(id);
      // parseEnvSpec reads a missing @ref as "latest"; deleting the whole environment is only for an id without one.
      const version = /@[^/]*$/.test(id.trim().replace(/^@/, "")) ? spec.ref : undefined;
      const what = version
        ? `version ${version} of ${spec.owner}/${spec.name}`
        : `${spec.owner}/${spec.name} with all its versions and reports`;
      if (!flags.yes) await confirm(`delete ${what}?`, `pass -y to delete ${what} without a prompt`);
      const client = await connectHub(flags);
      const deleted = await client.delete(spec.owner, spec.name, version);
      io.out(`deleted ${deleted.deleted}`);
    });
}

async function confirm(question: string, withoutTerminal: string): Promise<void> {
  if (!process.stdin.isTTY) throw new UsageError(`deleting needs confirmation: ${withoutTerminal}`);
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await prompt.question(`${question} [y/N] `);
    if (!/^y(es)?$/i.test(answer.trim())) throw new UsageError("not deleted: answer y to delete");
  } finally {
    prompt.close();
  }
}

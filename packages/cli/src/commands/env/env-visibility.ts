/** `vf env visibility owner/name public|private`: who can see an environment (others get "not found" for a private one). */
import { Argument, type Command } from "commander";
import type { Output } from "../../terminal/output.ts";
import { connectHub, type HubFlags, loadHubClient, withHubFlags } from "../hub/hub-flags.ts";

/** Registers `vf env visibility`. */
export function registerEnvVisibility(env: Command, io: Output): void {
  withHubFlags(
    env
      .command("visibility")
      .description("make an environment public or private")
      .argument("<id>", "owner/name")
      .addArgument(
        new Argument("<visibility>", "public: anyone can read; private: only you").choices([
          "public",
          "private",
        ]),
      ),
  )
    .addHelpText(
      "after",
      `
Examples:
  vf env visibility ada/gsm8k private`,
    )
    .action(async (id: string, visibility: "public" | "private", flags: HubFlags) => {
      const hub = await loadHubClient();
      const spec = hub.parseEnvSpec(id);
      const client = await connectHub(flags);
      const info = await client.setVisibility(spec.owner, spec.name, visibility);
      io.out(`${info.id} is now ${info.visibility}`);
    });
}

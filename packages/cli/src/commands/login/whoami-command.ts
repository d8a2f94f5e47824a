/** `vf whoami`: who the key in use belongs to, on which Hub, with which scope. */
import type { Command } from "commander";
import type { Output } from "../../terminal/output.ts";
import { connectHub, type HubFlags, withHubFlags } from "../hub/hub-flags.ts";

/** Registers `vf whoami`. */
export function registerWhoami(program: Command, io: Output): void {
  withHubFlags(
    program
      .command("whoami")
      .description("show the user and key vf uses for the Hub")
      .option("--json", "print the Hub's answer as JSON"),
  )
    .addHelpText(
      "after",
      `
Examples:
  vf whoami
  VF_API_KEY=vf_... vf whoami --json`,
    )
    .action(async (flags: HubFlags & { json?: boolean }) => {
      const client = await connectHub(flags);
      const me = await client.whoami();
      if (flags.json) {
        io.out(JSON.stringify({ hub: client.url, ...me }));
        return;
      }
      const admin = me.user.is_admin ? " (admin)" : "";
      io.out(`${me.user.name}${admin} on ${client.url}`);
      if (me.key) io.out(`key ${me.key.prefix} "${me.key.name}" (${me.key.scope})`);
    });
}

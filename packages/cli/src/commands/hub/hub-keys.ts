/** `vf hub keys list|create|revoke`: your API keys on a Hub (a new key is shown once; lists show prefixes). */
import { type Command, Option } from "commander";
import type { Output } from "../../terminal/output.ts";
import { textTable } from "./format-listing.ts";
import { connectHub, type HubFlags, withHubFlags } from "./hub-flags.ts";

type JsonFlags = HubFlags & { json?: boolean };

/** Registers `vf hub keys` (list by default) on the `vf hub` command. */
export function registerHubKeys(hub: Command, io: Output): void {
  const keys = hub
    .command("keys")
    .description("list, create and revoke your API keys")
    .addHelpText(
      "after",
      `
Examples:
  vf hub keys                                   your keys (prefixes, scopes, last use)
  vf hub keys create ci --scope read            a read-only key for CI, shown once
  vf hub keys revoke vf_3f9a2c1b                revoke by prefix`,
    );

  withHubFlags(
    keys
      .command("list", { isDefault: true })
      .description("list your keys (prefixes only)")
      .option("--json", "print the keys as JSON"),
  ).action(async (flags: JsonFlags) => {
    const client = await connectHub(flags);
    const list = await client.listKeys();
    if (flags.json) {
      io.out(JSON.stringify(list));
      return;
    }
    const rows = list.map((k) => [
      k.prefix,
      k.scope,
      k.revoked_at ? `revoked ${day(k.revoked_at)}` : "active",
      day(k.created_at),
      k.last_used_at ? day(k.last_used_at) : "never",
      k.name,
    ]);
    for (const line of textTable(["PREFIX", "SCOPE", "STATE", "CREATED", "LAST USED", "NAME"], rows))
      io.out(line);
  });

  withHubFlags(
    keys
      .command("create")
      .description("create a key, shown this once")
      .argument("<name>", "what the key is for, e.g. ci or laptop")
      .addOption(
        new Option("--scope <scope>", "read: see private environments; write: also push and delete")
          .choices(["read", "write"])
          .default("write"),
      )
      .option("--json", "print the key as JSON"),
  ).action(async (name: string, flags: JsonFlags & { scope: "read" | "write" }) => {
    const client = await connectHub(flags);
    const created = await client.createKey({ name, scope: flags.scope });
    if (flags.json) {
      io.out(JSON.stringify(created));
      return;
    }
    io.out(created.key);
    io.err(`created ${created.scope} key ${created.prefix} "${created.name}": shown this once, save it now`);
  });

  withHubFlags(
    keys
      .command("revoke")
      .description("revoke one of your keys; requests with it fail from now on")
      .argument("<prefix>", "the key's prefix, as vf hub keys lists it"),
  ).action(async (prefix: string, flags: HubFlags) => {
    const client = await connectHub(flags);
    const revoked = await client.revokeKey(prefix);
    io.out(`revoked ${revoked.prefix}`);
  });
}

function day(iso: string): string {
  return iso.slice(0, 10);
}

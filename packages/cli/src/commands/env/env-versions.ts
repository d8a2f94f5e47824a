/** `vf env versions owner/name`: an environment's versions, newest push first. */
import type { Command } from "commander";
import { integerFlag } from "../../flag-values.ts";
import type { Output } from "../../terminal/output.ts";
import { formatBytes, shortHash, textTable } from "../hub/format-listing.ts";
import { connectHub, type HubFlags, loadHubClient, withHubFlags } from "../hub/hub-flags.ts";

interface VersionsFlags extends HubFlags {
  num: number;
  cursor?: string;
  json?: boolean;
}

/** Registers `vf env versions`. */
export function registerEnvVersions(env: Command, io: Output): void {
  withHubFlags(
    env
      .command("versions")
      .description("list an environment's versions, newest first")
      .argument("<id>", "owner/name")
      .option("-n, --num <n>", "how many to show (1-100)", integerFlag("-n", 1), 20)
      .option("--cursor <cursor>", "the next page, as printed under the previous one")
      .option("--json", "print the page ({items, next_cursor}) as JSON"),
  )
    .addHelpText(
      "after",
      `
Examples:
  vf env versions ada/gsm8k
  vf env versions ada/gsm8k --json | jq -r '.items[0].content_hash'`,
    )
    .action(async (id: string, flags: VersionsFlags) => {
      const hub = await loadHubClient();
      const spec = hub.parseEnvSpec(id);
      const client = await connectHub(flags);
      const page = await client.listVersions(spec.owner, spec.name, {
        limit: Math.min(flags.num, 100),
        ...(flags.cursor ? { cursor: flags.cursor } : {}),
      });
      if (flags.json) {
        io.out(JSON.stringify(page));
        return;
      }
      const rows = page.items.map((v) => [
        v.semver,
        shortHash(v.content_hash),
        String(v.file_count),
        formatBytes(v.size),
        v.created_at.slice(0, 10),
        v.pushed_by ?? "-",
      ]);
      for (const line of textTable(["VERSION", "CONTENT", "FILES", "SIZE", "PUSHED", "BY"], rows))
        io.out(line);
      if (page.next_cursor) io.err(`more: add --cursor ${page.next_cursor}`);
    });
}

/**
 * `vf env list` and `vf env search QUERY`: environments (and tasksets) on the Hub you can see, a page
 * at a time.
 */
import { type Command, Option } from "commander";
import { integerFlag } from "../../flag-values.ts";
import type { Output } from "../../terminal/output.ts";
import { textTable } from "../hub/format-listing.ts";
import { connectHub, type HubFlags, withHubFlags } from "../hub/hub-flags.ts";

interface ListFlags extends HubFlags {
  search?: string;
  owner?: string;
  kind?: "environment" | "taskset";
  num: number;
  cursor?: string;
  json?: boolean;
}

/** Registers `vf env list` and `vf env search`. */
export function registerEnvList(env: Command, io: Output): void {
  pageFlags(
    env
      .command("list")
      .description("list environments and tasksets (public, and your private ones)")
      .option("-s, --search <words>", "only those whose id, description or tags hold every word"),
  )
    .addHelpText(
      "after",
      `
Examples:
  vf env list
  vf env list --owner ada -n 50
  vf env list --kind taskset                    tasksets only: vf eval ID --harness bash runs one
  vf env list --json | jq -r '.items[].id'`,
    )
    .action((flags: ListFlags) => list(io, flags));

  pageFlags(
    env
      .command("search")
      .description("find environments by words in their id, description or tags")
      .argument("<words...>", "every word must match"),
  )
    .addHelpText(
      "after",
      `
Examples:
  vf env search math
  vf env search tool calling --owner ada`,
    )
    .action((words: string[], flags: ListFlags) => list(io, { ...flags, search: words.join(" ") }));
}

function pageFlags(command: Command): Command {
  return withHubFlags(
    command
      .option("--owner <name>", "only this owner's environments")
      .addOption(
        new Option("--kind <kind>", "only environments or only tasksets").choices(["environment", "taskset"]),
      )
      .option("-n, --num <n>", "how many to show (1-100)", integerFlag("-n", 1), 20)
      .option("--cursor <cursor>", "the next page, as printed under the previous one")
      .option("--json", "print the page ({items, next_cursor}) as JSON"),
  );
}

async function list(io: Output, flags: ListFlags): Promise<void> {
  const client = await connectHub(flags);
  const page = await client.listEnvs({
    limit: Math.min(flags.num, 100),
    ...(flags.search ? { q: flags.search } : {}),
    ...(flags.owner ? { owner: flags.owner } : {}),
    ...(flags.kind ? { kind: flags.kind } : {}),
    ...(flags.cursor ? { cursor: flags.cursor } : {}),
  });
  if (flags.json) {
    io.out(JSON.stringify(page));
    return;
  }
  if (page.items.length === 0) {
    const noun = flags.kind === "taskset" ? "taskset" : "environment";
    io.err(
      flags.search ? `no ${noun} matches "${flags.search}"` : `no ${noun}s yet: push one with vf env push`,
    );
    return;
  }
  // KIND tells a taskset (run through a harness: vf eval ID --harness bash) from an environment.
  const rows = page.items.map((e) => [e.id, e.latest_version ?? "-", e.kind, e.visibility, e.description]);
  for (const line of textTable(["ID", "LATEST", "KIND", "VISIBILITY", "DESCRIPTION"], rows)) io.out(line);
  if (page.next_cursor) io.err(`more: add --cursor ${page.next_cursor}`);
}

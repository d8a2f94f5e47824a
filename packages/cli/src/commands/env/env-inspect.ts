/**
 * `vf env inspect owner/name[@ref] [PATH]`: browses a version's files on the Hub without installing
 * it: a folder prints as a table of entries, a text file as its content.
 */
import type { Command } from "commander";
import { integerFlag } from "../../flag-values.ts";
import type { Output } from "../../terminal/output.ts";
import { formatBytes, textTable } from "../hub/format-listing.ts";
import { connectHub, type HubFlags, loadHubClient, withHubFlags } from "../hub/hub-flags.ts";

interface InspectFlags extends HubFlags {
  maxBytes?: number;
  json?: boolean;
}

/** Registers `vf env inspect`. */
export function registerEnvInspect(env: Command, io: Output): void {
  withHubFlags(
    env
      .command("inspect")
      .description("browse a version's files on the Hub")
      .argument("<id>", "owner/name[@version|@hash|@latest]")
      .argument("[path]", "a folder or file in the package (default: its root)", "")
      .option(
        "--max-bytes <n>",
        "most bytes of a file to fetch (default 100000, at most 500000)",
        integerFlag("--max-bytes", 1),
      )
      .option("--json", "print the Hub's answer as JSON"),
  )
    .addHelpText(
      "after",
      `
Examples:
  vf env inspect ada/gsm8k                      the package's top folder
  vf env inspect ada/gsm8k@1.2.0 src/index.ts   one file's content`,
    )
    .action(async (id: string, path: string, flags: InspectFlags) => {
      const hub = await loadHubClient();
      const spec = hub.parseEnvSpec(id);
      const client = await connectHub(flags);
      const result = await client.inspect(spec.owner, spec.name, spec.ref, {
        path,
        ...(flags.maxBytes ? { maxBytes: flags.maxBytes } : {}),
      });
      if (flags.json) {
        io.out(JSON.stringify(result));
        return;
      }
      if (result.kind === "directory") {
        const rows = result.entries.map((e) => [
          e.type === "directory" ? "dir" : "file",
          e.type === "directory" ? "-" : formatBytes(e.size),
          e.type === "directory" ? `${e.path}/` : e.path,
        ]);
        for (const line of textTable(["TYPE", "SIZE", "PATH"], rows)) io.out(line);
        return;
      }
      if (result.encoding === "base64") {
        io.err(
          `${result.path} is a binary file of ${formatBytes(result.size)}: read it with vf env pull ${id}, or --json for base64`,
        );
        return;
      }
      io.out(result.content.replace(/\n$/, ""));
      if (result.truncated) {
        io.err(
          `(truncated: ${result.path} has ${result.size} bytes; pass --max-bytes, up to 500000, or vf env pull)`,
        );
      }
    });
}

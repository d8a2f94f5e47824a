/**
 * The flags every command that talks to a Hub shares (`--hub URL`, `-v`), and the client they build.
 * The Hub client library is imported when a Hub command runs, not when vf starts, so `vf --help`
 * and `vf eval` do not pay for loading it.
 */
import type { HubClient } from "@vf-rl/hub/client";
import type { Command } from "commander";
import { httpUrlFlag } from "../../flag-values.ts";

/** Flags added by `withHubFlags`. */
export interface HubFlags {
  /** The Hub's URL; default `VF_HUB_URL`, then the config file, then http://127.0.0.1:8377. */
  hub?: string;
  verbose?: boolean;
}

/** Adds `--hub <url>` and `-v, --verbose` to `command`; returns it for chaining. */
export function withHubFlags(command: Command): Command {
  return command
    .option("--hub <url>", "the Hub's URL (default: VF_HUB_URL, else the one you logged in to)", hubUrlFlag)
    .option("-v, --verbose", "show stack traces of failures");
}

/** The Hub client library, loaded on first use. */
export function loadHubClient(): Promise<typeof import("@vf-rl/hub/client")> {
  return import("@vf-rl/hub/client");
}

/** A client for the Hub of `--hub` (else the environment and config file) with the saved or `VF_API_KEY` key. */
export async function connectHub(flags: HubFlags): Promise<HubClient> {
  const { HubClient } = await loadHubClient();
  return HubClient.fromEnvironment(flags.hub ? { url: flags.hub } : {});
}

/** Checks a `--hub` value is an http(s) URL. */
export function hubUrlFlag(value: string): string {
  return httpUrlFlag("--hub", "http://127.0.0.1:8377")(value).replace(/\/+$/, "");
}

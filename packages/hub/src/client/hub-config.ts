/**
 * Where the client finds its Hub and key. Order: explicit options, then `VF_HUB_URL` / `VF_API_KEY`,
 * then the config file (`$XDG_CONFIG_HOME/vf/config.json`, else `~/.config/vf/config.json`), then
 * the local default `http://127.0.0.1:8377`. The file holds a key, so it is written with mode 0600.
 */
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { issueLines } from "@vf-rl/core/config";
import { z } from "zod";
import { HubError } from "../hub-error.ts";

/** The Hub a local `vf hub serve` listens on by default. */
export const DEFAULT_HUB_URL = "http://127.0.0.1:8377";

/** The config file's content. */
export const HubConfig = z
  .object({
    hub_url: z.string().url().optional(),
    api_key: z.string().optional(),
    /** The user the key belongs to, as `vf login` saw it. */
    user: z.string().optional(),
  })
  .strict();
export type HubConfig = z.infer<typeof HubConfig>;

/** Path of the config file for `env`. */
export function hubConfigPath(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), ".config");
  return join(base, "vf", "config.json");
}

/** The saved config, or `{}` when there is no file; a malformed file is an error naming it. */
export function readHubConfig(env: NodeJS.ProcessEnv = process.env): HubConfig {
  const path = hubConfigPath(env);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw error;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new HubError("bad_request", `${path} is not valid JSON: fix it or delete it and run vf login`);
  }
  const parsed = HubConfig.safeParse(json);
  if (!parsed.success) {
    throw new HubError(
      "bad_request",
      `${path}: ${issueLines(parsed.error)[0]}: fix it or run vf login again`,
    );
  }
  return parsed.data;
}

/** Writes `config` atomically with mode 0600 (the folder 0700); returns the path. */
export function writeHubConfig(config: HubConfig, env: NodeJS.ProcessEnv = process.env): string {
  const path = hubConfigPath(env);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(HubConfig.parse(config), null, 2)}\n`, { mode: 0o600 });
  chmodSync(temp, 0o600);
  renameSync(temp, path);
  return path;
}

/** Where requests go and with which key. */
export interface HubTarget {
  url: string;
  apiKey: string | null;
}

/** The Hub URL and key to use, by the order above. */
export function resolveHubTarget(
  options: { url?: string; apiKey?: string } = {},
  env: NodeJS.ProcessEnv = process.env,
): HubTarget {
  const config = readHubConfig(env);
  const url = options.url ?? env.VF_HUB_URL ?? config.hub_url ?? DEFAULT_HUB_URL;
  const apiKey =
    options.apiKey ?? env.VF_API_KEY ?? (sameHub(config.hub_url, url) ? config.api_key : undefined) ?? null;
  return { url: url.replace(/\/+$/, ""), apiKey };
}

// A saved key belongs to the Hub it was made on; never send it to another one.
function sameHub(saved: string | undefined, url: string): boolean {
  return (saved ?? DEFAULT_HUB_URL).replace(/\/+$/, "") === url.replace(/\/+$/, "");
}

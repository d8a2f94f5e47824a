/**
 * `vf env pull owner/name[@ref] [--target DIR]`: downloads and verifies a version's source into a
 * folder (default `./<name>`), to read or change and push again. An existing non-empty folder is
 * never overwritten.
 */
import { existsSync, readdirSync } from "node:fs";
import { resolve } from "node:path";
import type { VersionInfo } from "../api/schemas/env-schemas.ts";
import { HubError } from "../hub-error.ts";
import { parseEnvSpec } from "./env-spec.ts";
import type { HubClient } from "./hub-client.ts";
import { downloadVerified } from "./verified-download.ts";
import { writePackage } from "./write-package.ts";

/** Options of `pullEnvironment`. */
export interface PullOptions {
  client: HubClient;
  spec: string;
  /** Folder to create; default `<cwd>/<name>`. */
  target?: string;
  cwd?: string;
}

/** Pulls the source; returns the folder and version. */
export async function pullEnvironment(options: PullOptions): Promise<{ dir: string; version: VersionInfo }> {
  const spec = parseEnvSpec(options.spec);
  const dir = resolve(options.cwd ?? process.cwd(), options.target ?? spec.name);
  if (existsSync(dir) && readdirSync(dir).length > 0) {
    throw new HubError("conflict", `${dir} already exists and is not empty: pass --target with a new folder`);
  }
  const { version, files } = await downloadVerified(options.client, spec);
  writePackage(dir, files);
  return { dir, version };
}

/** Parses `owner/name[@ref]`, the way users name a Hub environment on the command line. */
import { HubError } from "../hub-error.ts";

/** A Hub environment and the version asked for (`latest` when none). */
export interface EnvSpec {
  owner: string;
  name: string;
  /** `latest`, a semver, a content hash or a hash prefix of 8+ digits. */
  ref: string;
}

/** The parts of `text`; `bad_request` saying the expected form when it is not one. */
export function parseEnvSpec(text: string): EnvSpec {
  const match = /^@?([a-z0-9][a-z0-9-]*)\/([a-z0-9][a-z0-9._-]*)(?:@([A-Za-z0-9.+-]+))?$/.exec(text.trim());
  if (!match) {
    throw new HubError(
      "bad_request",
      `"${text}" is not an environment id: use owner/name, owner/name@1.2.0, owner/name@<hash> or owner/name@latest`,
    );
  }
  return { owner: match[1]!, name: match[2]!, ref: match[3] ?? "latest" };
}

/**
 * `vf login`: store a key for a Hub in the config file, either pasted (`loginWithKey`) or obtained by
 * approving the login in the browser (`loginWithBrowser`, which polls until approved). Both check the
 * key with `whoami` before saving it. `vf logout` forgets it.
 */
import { constants, generateKeyPairSync, privateDecrypt } from "node:crypto";
import { hostname } from "node:os";
import type { DeviceStart } from "../api/schemas/account-schemas.ts";
import { HubError } from "../hub-error.ts";
import { HubClient } from "./hub-client.ts";
import { readHubConfig, writeHubConfig } from "./hub-config.ts";

/** What a login saved. */
export interface LoginResult {
  url: string;
  user: string;
  /** Prefix of the saved key (never the key). */
  keyPrefix: string;
  configPath: string;
}

/** Checks `apiKey` against the Hub at `url` and saves both. */
export async function loginWithKey(options: {
  url: string;
  apiKey: string;
  env?: NodeJS.ProcessEnv;
}): Promise<LoginResult> {
  const client = new HubClient({ url: options.url, apiKey: options.apiKey.trim() });
  const me = await client.whoami();
  const configPath = writeHubConfig(
    { hub_url: client.url, api_key: options.apiKey.trim(), user: me.user.name },
    options.env,
  );
  return { url: client.url, user: me.user.name, keyPrefix: me.key?.prefix ?? "", configPath };
}

/** Options of `loginWithBrowser`. */
export interface BrowserLoginOptions {
  url: string;
  /** Shown on the approval page; default `vf on <hostname>`. */
  clientName?: string;
  /** Called once with the code and the page to open (the CLI prints it and may open a browser). */
  onCode: (start: DeviceStart) => void | Promise<void>;
  /** Give up after this many seconds; default when the code expires. */
  timeoutSeconds?: number;
  signal?: AbortSignal;
  env?: NodeJS.ProcessEnv;
}

/** Runs the browser approval flow and saves the key it yields. */
export async function loginWithBrowser(options: BrowserLoginOptions): Promise<LoginResult> {
  const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const anonymous = new HubClient({ url: options.url });
  const start = await anonymous.startDeviceLogin(
    options.clientName ?? `vf on ${hostname()}`,
    publicKey.export({ type: "spki", format: "pem" }).toString(),
  );
  await options.onCode(start);
  const deadline = Math.min(
    Date.parse(start.expires_at),
    Date.now() + (options.timeoutSeconds ?? Number.POSITIVE_INFINITY) * 1000,
  );
  for (;;) {
    if (options.signal?.aborted)
      throw new HubError("bad_request", "the login was cancelled: run vf login again");
    if (Date.now() > deadline)
      throw new HubError("not_found", "the login was not approved in time: run vf login again");
    const poll = await anonymous.pollDeviceLogin(start.device_code);
    if (poll.status === "denied")
      throw new HubError("forbidden", "the login was denied on the Hub's page: run vf login again to retry");
    if (poll.status === "approved") {
      const key = privateDecrypt(
        { key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: "sha256" },
        Buffer.from(poll.encrypted_key, "base64"),
      ).toString("utf8");
      return loginWithKey({ url: options.url, apiKey: key, ...(options.env ? { env: options.env } : {}) });
    }
    await new Promise((resolve) => setTimeout(resolve, start.interval_seconds * 1000));
  }
}

/** Removes the saved key (keeping the Hub URL); true when there was one. */
export function logout(env?: NodeJS.ProcessEnv): boolean {
  const config = readHubConfig(env);
  if (!config.api_key) return false;
  writeHubConfig({ ...(config.hub_url ? { hub_url: config.hub_url } : {}) }, env);
  return true;
}

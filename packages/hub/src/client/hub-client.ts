/**
 * A typed client of the Hub API. Every reply is checked against the same zod schemas the server
 * uses; every failure is a `HubError` with the server's `code`, `status` and message (or
 * `unreachable` when no reply came). Branch on `code`, never on message text.
 *
 * @example
 * const hub = HubClient.fromEnvironment();
 * const info = await hub.envInfo("ada", "echo");
 */
import { z } from "zod";
import { HubErrorCode } from "../api/error-code.ts";
import {
  ApiKeyInfo,
  CreatedKey,
  CreatedUser,
  type CreateKeyRequest,
  type CreateUserRequest,
  DevicePoll,
  DeviceStart,
  RevokedKey,
  Whoami,
} from "../api/schemas/account-schemas.ts";
import {
  Deleted,
  EnvInfo,
  type EnvKind,
  EnvSummary,
  InspectResult,
  PushResult,
  VersionInfo,
  type Visibility,
} from "../api/schemas/env-schemas.ts";
import { pageOf } from "../api/schemas/envelope.ts";
import {
  type CreateReportRequest,
  Leaderboard,
  ReportInfo,
  ReportRow,
  RowsReceived,
} from "../api/schemas/report-schemas.ts";
import { HubError } from "../hub-error.ts";
import { resolveHubTarget } from "./hub-config.ts";

/** Options of `HubClient`. */
export interface HubClientOptions {
  /** The Hub's origin, e.g. `http://127.0.0.1:8377`. */
  url: string;
  /** A vf API key; null for anonymous reads. */
  apiKey?: string | null;
  /** Per-request timeout in seconds; default 60. */
  timeoutSeconds?: number;
}

const ErrorBody = z.object({
  error: z.object({
    code: HubErrorCode,
    message: z.string(),
    details: z.record(z.string(), z.unknown()).optional(),
  }),
});

type Query = Record<string, string | number | undefined>;

const enc = encodeURIComponent;

/** The Hub API, typed. */
export class HubClient {
  readonly url: string;
  readonly apiKey: string | null;
  readonly #timeoutMs: number;

  constructor(options: HubClientOptions) {
    this.url = options.url.replace(/\/+$/, "");
    this.apiKey = options.apiKey ?? null;
    this.#timeoutMs = (options.timeoutSeconds ?? 60) * 1000;
  }

  /** A client for the Hub and key of the environment and config file (see hub-config.ts). */
  static fromEnvironment(options: { url?: string; apiKey?: string } = {}): HubClient {
    return new HubClient(resolveHubTarget(options));
  }

  /** Raw request to `/api/v1<path>`; the reply is returned when it is a success, else thrown. */
  async send(
    method: string,
    path: string,
    options: { query?: Query; json?: unknown; body?: Uint8Array; headers?: Record<string, string> } = {},
  ): Promise<Response> {
    const url = new URL(`${this.url}/api/v1${path}`);
    for (const [k, v] of Object.entries(options.query ?? {}))
      if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { ...options.headers, accept: "application/json" };
    if (this.apiKey) headers.authorization = `Bearer ${this.apiKey}`;
    let body: string | Uint8Array<ArrayBuffer> | undefined;
    if (options.json !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(options.json);
    } else if (options.body) {
      headers["content-type"] = "application/gzip";
      body = options.body as Uint8Array<ArrayBuffer>;
    }
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers,
        ...(body !== undefined ? { body } : {}),
        signal: AbortSignal.timeout(this.#timeoutMs),
      });
    } catch (error) {
      throw Object.assign(
        new HubError(
          "unreachable",
          `cannot reach the Hub at ${this.url} (${(error as Error).message}): start it with vf hub serve, or set VF_HUB_URL`,
        ),
        { cause: error },
      );
    }
    if (response.ok) return response;
    const text = await response.text();
    const parsed = ErrorBody.safeParse(safeJson(text));
    if (parsed.success)
      throw new HubError(parsed.data.error.code, parsed.data.error.message, parsed.data.error.details);
    throw new HubError(
      "internal",
      `the Hub at ${this.url} answered ${response.status} without an error body: check the URL points at a vf Hub`,
    );
  }

  /** A JSON request whose `data` is parsed by `schema`. */
  async request<S extends z.ZodType>(
    schema: S,
    method: string,
    path: string,
    options: { query?: Query; json?: unknown; body?: Uint8Array; headers?: Record<string, string> } = {},
  ): Promise<z.infer<S>> {
    const response = await this.send(method, path, options);
    const body = (await response.json().catch(() => null)) as { data?: unknown } | null;
    const parsed = schema.safeParse(body?.data);
    if (!parsed.success) {
      throw new HubError(
        "internal",
        `the Hub's reply to ${method} ${path} has an unexpected shape: update vf, or check the Hub's version`,
      );
    }
    return parsed.data;
  }

  /** Who the key belongs to. */
  whoami(): Promise<Whoami> {
    return this.request(Whoami, "GET", "/me");
  }

  /** Your keys (prefixes only). */
  listKeys(): Promise<ApiKeyInfo[]> {
    return this.request(pageOf(ApiKeyInfo), "GET", "/me/keys").then((p) => p.items);
  }

  /** A new key, shown this once. */
  createKey(request: z.input<typeof CreateKeyRequest>): Promise<CreatedKey> {
    return this.request(CreatedKey, "POST", "/me/keys", { json: request });
  }

  /** Revokes your key with this prefix. */
  revokeKey(prefix: string): Promise<RevokedKey> {
    return this.request(RevokedKey, "DELETE", `/me/keys/${enc(prefix)}`);
  }

  /** Creates a user with a first write key (admins only); the secrets are shown this once. */
  createUser(request: { name: string; password?: string; is_admin?: boolean }): Promise<CreatedUser> {
    return this.request(CreatedUser, "POST", "/users", {
      json: request satisfies Partial<CreateUserRequest>,
    });
  }

  /** Starts a browser login with the CLI's one-time public key. */
  startDeviceLogin(clientName: string, publicKeyPem: string): Promise<DeviceStart> {
    return this.request(DeviceStart, "POST", "/auth/device", {
      json: { client_name: clientName, public_key: publicKeyPem },
    });
  }

  /** Polls a browser login. */
  pollDeviceLogin(deviceCode: string): Promise<DevicePoll> {
    return this.request(DevicePoll, "POST", "/auth/device/poll", { json: { device_code: deviceCode } });
  }

  /** One page of environments matching `q` (and `owner`, `kind` when given). */
  listEnvs(query: { q?: string; owner?: string; kind?: EnvKind; limit?: number; cursor?: string } = {}) {
    return this.request(pageOf(EnvSummary), "GET", "/envs", { query });
  }

  /** An environment with its latest version, README and install commands. */
  envInfo(owner: string, name: string): Promise<EnvInfo> {
    return this.request(EnvInfo, "GET", `/envs/${enc(owner)}/${enc(name)}`);
  }

  /** One page of versions, newest push first. */
  listVersions(owner: string, name: string, query: { limit?: number; cursor?: string } = {}) {
    return this.request(pageOf(VersionInfo), "GET", `/envs/${enc(owner)}/${enc(name)}/versions`, { query });
  }

  /** The version `ref` (latest, semver, hash or 8+ digit prefix). */
  version(owner: string, name: string, ref = "latest"): Promise<VersionInfo> {
    return this.request(VersionInfo, "GET", `/envs/${enc(owner)}/${enc(name)}/versions/${enc(ref)}`);
  }

  /** The .tgz of version `ref`. */
  async downloadTarball(owner: string, name: string, ref: string): Promise<Uint8Array> {
    const response = await this.send("GET", `/envs/${enc(owner)}/${enc(name)}/versions/${enc(ref)}/tarball`);
    return new Uint8Array(await response.arrayBuffer());
  }

  /** Pushes a .tgz; `contentHash` lets the server check both sides agree on the spec. */
  pushTarball(
    owner: string,
    name: string,
    tarball: Uint8Array,
    options: { visibility?: Visibility; contentHash?: string } = {},
  ): Promise<PushResult> {
    return this.request(PushResult, "POST", `/envs/${enc(owner)}/${enc(name)}/versions`, {
      body: tarball,
      query: { visibility: options.visibility },
      headers: options.contentHash ? { "x-vf-content-hash": options.contentHash } : {},
    });
  }

  /** Changes an environment's visibility. */
  setVisibility(owner: string, name: string, visibility: Visibility): Promise<EnvInfo> {
    return this.request(EnvInfo, "PATCH", `/envs/${enc(owner)}/${enc(name)}`, { json: { visibility } });
  }

  /** The folder or file at `path` of version `ref`, browsed on the server. */
  inspect(
    owner: string,
    name: string,
    ref: string,
    options: { path?: string; maxBytes?: number } = {},
  ): Promise<InspectResult> {
    return this.request(InspectResult, "GET", `/envs/${enc(owner)}/${enc(name)}/versions/${enc(ref)}/files`, {
      query: { path: options.path, max_bytes: options.maxBytes },
    });
  }

  /** Deletes one version, or the whole environment when `ref` is omitted. */
  delete(owner: string, name: string, ref?: string): Promise<Deleted> {
    const path = `/envs/${enc(owner)}/${enc(name)}${ref ? `/versions/${enc(ref)}` : ""}`;
    return this.request(Deleted, "DELETE", path);
  }

  /** Opens (or finds, by run id) a report. */
  openReport(request: z.input<typeof CreateReportRequest>): Promise<ReportInfo> {
    return this.request(ReportInfo, "POST", "/reports", { json: request });
  }

  /** One report. */
  report(id: number): Promise<ReportInfo> {
    return this.request(ReportInfo, "GET", `/reports/${id}`);
  }

  /** Uploads rows `offset..`; returns how many the report now holds. */
  uploadRows(id: number, offset: number, rows: unknown[]): Promise<number> {
    return this.request(RowsReceived, "PUT", `/reports/${id}/rows`, { json: { offset, rows } }).then(
      (r) => r.rows_received,
    );
  }

  /** Marks a fully uploaded report complete. */
  finalizeReport(id: number): Promise<ReportInfo> {
    return this.request(ReportInfo, "POST", `/reports/${id}/finalize`);
  }

  /** One page of a report's rows. */
  reportRows(id: number, query: { limit?: number; cursor?: string } = {}) {
    return this.request(pageOf(ReportRow), "GET", `/reports/${id}/rows`, { query });
  }

  /** One page of an environment's reports. */
  listReports(owner: string, name: string, query: { limit?: number; cursor?: string } = {}) {
    return this.request(pageOf(ReportInfo), "GET", `/envs/${enc(owner)}/${enc(name)}/reports`, { query });
  }

  /** Best and mean reward per model. */
  leaderboard(owner: string, name: string): Promise<Leaderboard> {
    return this.request(Leaderboard, "GET", `/envs/${enc(owner)}/${enc(name)}/leaderboard`);
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

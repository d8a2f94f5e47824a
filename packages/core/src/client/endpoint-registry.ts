/**
 * The endpoint registry, `configs/endpoints.toml`: named model endpoints, as in verifiers.
 *
 * ```toml
 * [[endpoint]]
 * endpoint_id = "qwen3"            # the alias passed as -m
 * model = "Qwen/Qwen3-0.6B"        # the model id sent to the server
 * url = "http://10.0.0.1:8000/v1"  # alias api_base_url
 * key = "VLLM_API_KEY"             # name of the variable holding the key; alias api_key_var
 * type = "openai_chat_completions" # alias api_client_type; or openai_completions, openai_responses,
 *                                  # anthropic_messages (client-type.ts); default openai_chat_completions
 * headers = { X-Team = "rl" }      # alias extra_headers
 * ```
 *
 * Several rows with one `endpoint_id` are replicas of one model, used in turn.
 */
import { readFile } from "node:fs/promises";
import { parse as parseToml } from "smol-toml";
import { z } from "zod";
import { ConfigError, EndpointRegistryUnreadableError } from "../errors.ts";
import { type ApiClientType, DEFAULT_CLIENT_TYPE, parseClientType } from "./client-type.ts";

/** One `[[endpoint]]` row as written, aliases included. */
export const EndpointRow = z
  .object({
    endpoint_id: z.string().min(1),
    model: z.string().min(1),
    url: z.string().min(1).optional(),
    api_base_url: z.string().min(1).optional(),
    key: z.string().min(1).optional(),
    api_key_var: z.string().min(1).optional(),
    type: z.string().optional(),
    api_client_type: z.string().optional(),
    headers: z.record(z.string(), z.string()).optional(),
    extra_headers: z.record(z.string(), z.string()).optional(),
  })
  .strict();
export type EndpointRow = z.infer<typeof EndpointRow>;

/** The file as written: `[[endpoint]]` rows and nothing else. */
export const EndpointsFile = z.object({ endpoint: z.array(z.unknown()).default([]) }).strict();
export type EndpointsFile = z.infer<typeof EndpointsFile>;

/** Where and how to reach one replica of a model. */
export interface EndpointAddress {
  /** The API the endpoint speaks. */
  type: ApiClientType;
  /** Base URL of the API, e.g. http://10.0.0.1:8000/v1 (for Anthropic's, https://api.anthropic.com). */
  baseUrl: string;
  /** Name of the variable holding the API key; null for servers that need none (the key is "EMPTY"). */
  apiKeyVar: string | null;
  /** Extra headers sent with every request. */
  headers: Record<string, string>;
}

/** One endpoint id of the registry: its model and its replicas, in file order. */
export interface RegistryEntry {
  endpointId: string;
  model: string;
  replicas: EndpointAddress[];
}

/** The parsed registry: endpoint ids to their model and replicas. */
export class EndpointRegistry {
  constructor(
    /** The file it came from, for messages ("" when built in code). */
    readonly path: string,
    private readonly entries: ReadonlyMap<string, RegistryEntry>,
  ) {}

  /** The entry for an endpoint id, or undefined. */
  get(endpointId: string): RegistryEntry | undefined {
    return this.entries.get(endpointId);
  }

  /** Every endpoint id, in file order. */
  ids(): string[] {
    return [...this.entries.keys()];
  }
}

/** Options of `loadEndpointRegistry`. */
export interface LoadEndpointRegistryOptions {
  /** When false, a missing file gives an empty registry (for the default path); default true. */
  required?: boolean;
}

/** Reads and validates an endpoints.toml; throws `ConfigError` naming the file, row and key. */
export async function loadEndpointRegistry(
  path: string,
  options: LoadEndpointRegistryOptions = {},
): Promise<EndpointRegistry> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT" && options.required === false) {
      return new EndpointRegistry(path, new Map());
    }
    throw new EndpointRegistryUnreadableError(path, (error as Error).message);
  }
  return parseEndpointRegistry(text, path);
}

/** Parses endpoints.toml text; `path` is only for messages. */
export function parseEndpointRegistry(text: string, path = "endpoints.toml"): EndpointRegistry {
  let data: unknown;
  try {
    data = parseToml(text);
  } catch (error) {
    throw new ConfigError(
      `${path} is not valid TOML: ${(error as Error).message.split("\n")[0]}: fix the syntax`,
    );
  }
  const file = EndpointsFile.safeParse(data);
  if (!file.success) {
    const issue = file.error.issues[0]!;
    if (issue.code === "unrecognized_keys") {
      throw new ConfigError(
        `${path}: unexpected top-level key "${issue.keys[0]}": the file holds only [[endpoint]] rows (endpoint_id, model, url, key, type, headers)`,
        issue.keys[0],
      );
    }
    throw new ConfigError(
      `${path}: "endpoint" must be a list of tables: write each endpoint as an [[endpoint]] row`,
      "endpoint",
    );
  }
  const entries = new Map<string, RegistryEntry>();
  file.data.endpoint.forEach((raw, index) => {
    const row = parseRow(raw, index, path);
    const where = `${path}: [[endpoint]] row ${index + 1} (endpoint_id "${row.endpoint_id}")`;
    const type = parseClientType(row.type ?? row.api_client_type ?? DEFAULT_CLIENT_TYPE);
    if (!type.ok)
      throw new ConfigError(`${where}: ${type.problem}`, row.type !== undefined ? "type" : "api_client_type");
    const replica: EndpointAddress = {
      type: type.type,
      baseUrl: (row.url ?? row.api_base_url)!,
      apiKeyVar: row.key ?? row.api_key_var ?? null,
      headers: row.headers ?? row.extra_headers ?? {},
    };
    const existing = entries.get(row.endpoint_id);
    if (existing === undefined) {
      entries.set(row.endpoint_id, {
        endpointId: row.endpoint_id,
        model: row.model,
        replicas: [replica],
      });
    } else if (existing.model !== row.model) {
      throw new ConfigError(
        `${where}: model "${row.model}" differs from "${existing.model}" on an earlier row with this id: replicas of one endpoint_id serve one model; give this row its own endpoint_id`,
        "model",
      );
    } else {
      existing.replicas.push(replica);
    }
  });
  return new EndpointRegistry(path, entries);
}

/** Alias pairs: a row may use either name, not both. */
const ALIASES: Array<[keyof EndpointRow, keyof EndpointRow]> = [
  ["url", "api_base_url"],
  ["key", "api_key_var"],
  ["type", "api_client_type"],
  ["headers", "extra_headers"],
];

function parseRow(raw: unknown, index: number, path: string): EndpointRow {
  const id =
    typeof raw === "object" &&
    raw !== null &&
    typeof (raw as { endpoint_id?: unknown }).endpoint_id === "string"
      ? ` (endpoint_id "${(raw as { endpoint_id: string }).endpoint_id}")`
      : "";
  const where = `${path}: [[endpoint]] row ${index + 1}${id}`;
  if (typeof raw === "object" && raw !== null && "client_type" in raw) {
    throw new ConfigError(
      `${where}: key "client_type" was renamed: write type = "openai_chat_completions"`,
      "client_type",
    );
  }
  const parsed = EndpointRow.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    if (issue.code === "unrecognized_keys") {
      const key = issue.keys[0]!;
      throw new ConfigError(
        `${where}: unknown key "${key}": the keys are endpoint_id, model, url, key, type, headers (or their aliases api_base_url, api_key_var, api_client_type, extra_headers)`,
        key,
      );
    }
    const key = String(issue.path[0] ?? "");
    const missing = typeof raw === "object" && raw !== null && !(key in raw);
    const problem = missing ? "is missing" : `is invalid at ${issue.path.join(".")} (${issue.message})`;
    throw new ConfigError(`${where}: key "${key}" ${problem}: ${HINTS[key] ?? "fix the row"}`, key);
  }
  const row = parsed.data;
  for (const [name, alias] of ALIASES) {
    if (row[name] !== undefined && row[alias] !== undefined) {
      throw new ConfigError(`${where}: both "${name}" and its alias "${alias}" are set: keep one`, alias);
    }
  }
  if (row.url === undefined && row.api_base_url === undefined) {
    throw new ConfigError(`${where}: key "url" is missing: ${HINTS.url}`, "url");
  }
  return row;
}

const HINTS: Record<string, string> = {
  endpoint_id: 'add endpoint_id = "<alias passed as -m>"',
  model: 'add model = "<model id the server serves>"',
  url: 'add url = "http://host:port/v1"',
  api_base_url: 'write api_base_url = "http://host:port/v1"',
  key: 'write key = "<NAME_OF_THE_VARIABLE_HOLDING_THE_KEY>"',
  api_key_var: 'write api_key_var = "<NAME_OF_THE_VARIABLE_HOLDING_THE_KEY>"',
  type: 'write type = "openai_chat_completions" (or openai_completions, openai_responses, anthropic_messages)',
  api_client_type:
    'write api_client_type = "openai_chat_completions" (or openai_completions, openai_responses, anthropic_messages)',
  headers: 'write headers = { Header-Name = "value" } (string values)',
  extra_headers: 'write extra_headers = { Header-Name = "value" } (string values)',
};

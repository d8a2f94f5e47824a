/**
 * Declares API routes once, with zod schemas for their query, body and response; from the same
 * declarations the Hub validates requests, wraps replies in the envelope, and writes the OpenAPI
 * document. A handler returns its data (or a raw `Response` for binary routes).
 */

import { issuePath } from "@vf-rl/core/config";
import type { Context, Hono } from "hono";
import type { z } from "zod";
import { HubError } from "../hub-error.ts";
import type { HubEnv } from "../server/hub-context.ts";
import { requireUser } from "../server/principal.ts";
import { readJson, refuseDeclaredOver } from "../server/request-body.ts";
import { BODY_LIMITS } from "./body-limits.ts";
import { dataEnvelope } from "./schemas/envelope.ts";

/** Who may call a route (checked again in the handler against the resource itself). */
export type RouteAuth = "none" | "optional" | "read" | "write";

/** One API route. `path` uses OpenAPI braces: `/envs/{owner}/{name}`. */
export interface RouteSpec<Q extends z.ZodType, B extends z.ZodType, R extends z.ZodType> {
  method: "get" | "post" | "put" | "patch" | "delete";
  path: string;
  summary: string;
  auth: RouteAuth;
  query?: Q;
  /** A JSON body schema, or "tarball" for a raw .tgz body, handed to the handler unread as `upload`. */
  body?: B | "tarball";
  /** Cap of a JSON body in bytes; default `BODY_LIMITS.json` (a tarball's is the Hub's `maxTarballBytes`). */
  maxBodyBytes?: number;
  /** The `data` of a success, or "binary" for raw bytes. */
  response: R | "binary";
  /** HTTP status of a success; default 200. */
  status?: (data: z.infer<R>) => number;
}

/** What a handler receives, parsed. */
export interface RouteInput<Q extends z.ZodType, B extends z.ZodType> {
  params: Record<string, string>;
  query: z.infer<Q>;
  body: z.infer<B>;
  /**
   * A "tarball" route's body, not yet read (its declared length already checked against the Hub's
   * `maxTarballBytes`): the handler streams it, and must count it against that cap too.
   */
  upload: ReadableStream<Uint8Array> | null;
}

/** The routes of one Hub app, collected for the OpenAPI document. */
export class RouteTable {
  readonly specs: RouteSpec<z.ZodType, z.ZodType, z.ZodType>[] = [];

  constructor(
    readonly app: Hono<HubEnv>,
    readonly basePath: string,
  ) {}

  /** Registers `spec` with `handler` on the app. */
  add<Q extends z.ZodType, B extends z.ZodType, R extends z.ZodType>(
    spec: RouteSpec<Q, B, R>,
    handler: (c: Context<HubEnv>, input: RouteInput<Q, B>) => Promise<z.infer<R> | Response>,
  ): void {
    this.specs.push(spec as unknown as RouteSpec<z.ZodType, z.ZodType, z.ZodType>);
    const honoPath = this.basePath + spec.path.replace(/\{(\w+)\}/g, ":$1");
    this.app.on(spec.method.toUpperCase(), honoPath, async (c) => {
      // Who may call comes first: an anonymous or read-only caller is refused before its body is read.
      if (spec.auth === "read" || spec.auth === "write") requireUser(c, spec.auth);
      const query = spec.query ? parseWith(spec.query, c.req.query(), "query") : undefined;
      let body: unknown;
      let upload: ReadableStream<Uint8Array> | null = null;
      if (spec.body === "tarball") {
        refuseDeclaredOver(c, c.get("hub").limits.maxTarballBytes);
        upload = c.req.raw.body;
      } else if (spec.body) {
        body = parseWith(spec.body, await readJson(c, spec.maxBodyBytes ?? BODY_LIMITS.json), "body");
      }
      const data = await handler(c, {
        params: c.req.param() as Record<string, string>,
        query,
        body,
        upload,
      } as RouteInput<Q, B>);
      if (data instanceof Response) return data;
      const status = spec.status?.(data) ?? 200;
      return c.json({ data }, status as 200);
    });
  }
}

/** `value` parsed by `schema`, or `validation_failed` naming the first bad field. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown, where: string): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = issuePath(issue, where);
  throw new HubError("validation_failed", `${where} field "${field}": ${issue.message}`, {
    field,
    in: where,
  });
}

/** The envelope schema of a route's success, for the document. */
export function successSchema(spec: RouteSpec<z.ZodType, z.ZodType, z.ZodType>): z.ZodType | null {
  return spec.response === "binary" ? null : dataEnvelope(spec.response);
}

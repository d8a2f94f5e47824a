/**
 * Declares API routes once, with zod schemas for their query, body and response; from the same
 * declarations the Hub validates requests, wraps replies in the envelope, and writes the OpenAPI
 * document. The path types the handler's `params` and the route's `auth` its `user`, so a handler
 * neither asserts a parameter nor checks again who is calling. A handler returns its data (or a raw
 * `Response` for binary routes).
 */

import { issuePath } from "@vf-rl/core/config";
import type { Context, Hono } from "hono";
import type { z } from "zod";
import { HubError } from "../hub-error.ts";
import type { HubEnv } from "../server/hub-context.ts";
import { readJson, refuseDeclaredOver } from "../server/request-body.ts";
import { BODY_LIMITS } from "./body-limits.ts";
import { authorize, type RouteAuth, type RouteUser } from "./route-auth.ts";
import { dataEnvelope } from "./schemas/envelope.ts";

/**
 * The names of the `{param}`s of an OpenAPI path: `"/envs/{owner}/{name}"` gives `"owner" | "name"`.
 */
export type PathParamNames<P extends string> = P extends `${string}{${infer Name}}${infer Rest}`
  ? Name | PathParamNames<Rest>
  : never;

/** The path parameters of a route at `P`, each a string: `{ owner: string; name: string }`. */
export type PathParams<P extends string> = { [Name in PathParamNames<P>]: string };

/** One API route. `path` uses OpenAPI braces: `/envs/{owner}/{name}`. */
export interface RouteSpec<
  P extends string,
  A extends RouteAuth,
  Q extends z.ZodType,
  B extends z.ZodType,
  R extends z.ZodType,
> {
  method: "get" | "post" | "put" | "patch" | "delete";
  path: P;
  summary: string;
  /** Who may call; checked before the body is read, and the handler gets the caller as `user`. */
  auth: A;
  /** With `auth: "admin"`: what a user who is not an admin is told; default `NOT_ADMIN`. */
  notAdmin?: string;
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

/** Any route's spec, as the table keeps them for the OpenAPI document. */
export type AnyRouteSpec = RouteSpec<string, RouteAuth, z.ZodType, z.ZodType, z.ZodType>;

/** What a handler receives, parsed and checked. */
export interface RouteInput<P extends string, A extends RouteAuth, Q extends z.ZodType, B extends z.ZodType> {
  /** The path's `{param}`s, by name; a name the path does not declare is a type error. */
  params: PathParams<P>;
  /** The caller, as `auth` requires: never null on a `read`, `write` or `admin` route. */
  user: RouteUser<A>;
  query: z.infer<Q>;
  body: z.infer<B>;
  /**
   * A "tarball" route's body, not yet read (its declared length already checked against the Hub's
   * `maxTarballBytes`): the handler streams it, and must count it against that cap too.
   */
  upload: ReadableStream<Uint8Array> | null;
}

/** The handler of a route: its data (wrapped in the envelope), or a raw `Response` for binary routes. */
export type RouteHandler<
  P extends string,
  A extends RouteAuth,
  Q extends z.ZodType,
  B extends z.ZodType,
  R extends z.ZodType,
> = (c: Context<HubEnv>, input: RouteInput<P, A, Q, B>) => Promise<z.infer<R> | Response>;

/** The routes of one Hub app, collected for the OpenAPI document. */
export class RouteTable {
  readonly specs: AnyRouteSpec[] = [];

  constructor(
    readonly app: Hono<HubEnv>,
    readonly basePath: string,
  ) {}

  /** Registers `spec` with `handler` on the app. */
  add<
    const P extends string,
    const A extends RouteAuth,
    Q extends z.ZodType,
    B extends z.ZodType,
    R extends z.ZodType,
  >(spec: RouteSpec<P, A, Q, B, R>, handler: RouteHandler<P, A, Q, B, R>): void {
    this.specs.push(spec as unknown as AnyRouteSpec);
    const honoPath = this.basePath + spec.path.replace(/\{(\w+)\}/g, ":$1");
    this.app.on(spec.method.toUpperCase(), honoPath, async (c) => {
      // Who may call comes first: an anonymous or read-only caller is refused before its body is read.
      const user = authorize(c.get("principal"), spec.auth, spec.notAdmin);
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
        // The router matched `honoPath`, so every name of the path is there.
        params: c.req.param() as PathParams<P>,
        user,
        query,
        body,
        upload,
      } as RouteInput<P, A, Q, B>);
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
export function successSchema(spec: AnyRouteSpec): z.ZodType | null {
  return spec.response === "binary" ? null : dataEnvelope(spec.response);
}

/** The OpenAPI 3.1 document of the API, generated from the route table's zod schemas. */
import { z } from "zod";
import { STATUS_OF } from "./error-code.ts";
import { type RouteTable, successSchema } from "./route-table.ts";
import { ErrorEnvelope } from "./schemas/envelope.ts";

const toSchema = (schema: z.ZodType, io: "input" | "output") =>
  z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" });

/** The document for every route of `table`. */
export function openApiDocument(table: RouteTable, version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const spec of table.specs) {
    const pathParams = [...spec.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
      name: m[1],
      in: "path",
      required: true,
      schema: { type: "string" },
    }));
    const queryParams = spec.query
      ? Object.entries((toSchema(spec.query, "input").properties ?? {}) as Record<string, unknown>).map(
          ([name, schema]) => ({
            name,
            in: "query",
            required: false,
            schema,
          }),
        )
      : [];
    const success = successSchema(spec);
    const operation: Record<string, unknown> = {
      summary: spec.summary,
      operationId: `${spec.method}${spec.path
        .replace(/[{}]/g, "")
        .replace(/\/(\w)/g, (_, ch: string) => ch.toUpperCase())
        .replace(/\W/g, "")}`,
      parameters: [...pathParams, ...queryParams],
      security: spec.auth === "none" || spec.auth === "optional" ? [{}, { bearer: [] }] : [{ bearer: [] }],
      responses: {
        "200": {
          description: "success",
          content: success
            ? { "application/json": { schema: toSchema(success, "output") } }
            : { "application/octet-stream": { schema: { type: "string", format: "binary" } } },
        },
        default: {
          description: "error",
          content: { "application/json": { schema: toSchema(ErrorEnvelope, "output") } },
        },
      },
    };
    if (spec.body === "tarball") {
      operation.requestBody = {
        required: true,
        content: { "application/gzip": { schema: { type: "string", format: "binary" } } },
      };
    } else if (spec.body) {
      operation.requestBody = {
        required: true,
        content: { "application/json": { schema: toSchema(spec.body, "input") } },
      };
    }
    paths[spec.path] = { ...paths[spec.path], [spec.method]: operation };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "vf Environments Hub",
      version,
      description: `Every JSON reply is {data} or {error: {code, message, details?}}. Error codes and statuses: ${Object.entries(
        STATUS_OF,
      )
        .filter(([, status]) => status > 0)
        .map(([code, status]) => `${code} (${status})`)
        .join(", ")}.`,
    },
    servers: [{ url: table.basePath }],
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer", description: "a vf API key" } },
    },
    paths,
  };
}

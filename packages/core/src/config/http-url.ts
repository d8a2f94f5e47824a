import { z } from "zod";

/** Whether `value` is an http:// or https:// URL. */
export function isHttpUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === "http:" || protocol === "https:";
  } catch {
    return false;
  }
}

/**
 * A config key naming a server vf reaches over HTTP (a model endpoint, an inference server, a
 * trainer, a teacher): http or https only, so ftp:// or a bare host is refused where it is written
 * rather than at the first request.
 */
export const HttpUrl = z
  .string()
  .refine(isHttpUrl, "must be an http:// or https:// URL, e.g. http://127.0.0.1:8000/v1");

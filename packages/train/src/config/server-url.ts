import { z } from "zod";

/**
 * The base URL of a server a run reaches over HTTP (the inference server, the trainer, a teacher):
 * http or https only, as `--inference-url` and `--trainer-url` check theirs (zod's plain url took
 * ftp://, which then failed at the first request).
 */
export const ServerUrl = z.url({
  protocol: /^https?$/,
  error: "must be an http:// or https:// URL, e.g. http://127.0.0.1:8000/v1",
});

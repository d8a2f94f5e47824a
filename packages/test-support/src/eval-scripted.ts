/**
 * `vf eval <env> -m scripted -b <url> ... --json` against a scripted OpenAI-compatible server that
 * lives for the one run: how an environment package shows its reward's range end to end.
 */
import type { IncomingHttpHeaders } from "node:http";
import {
  type ScriptedApi,
  type ScriptedRequest,
  type ScriptedServerOptions,
  startScriptedServer,
} from "@vf-rl/core/testing";
import { type RunVfOptions, runVf, type VfResult } from "./run-vf.ts";

export interface EvalScriptedOptions extends RunVfOptions {
  /** How the scripted model answers (the server's options: reply, latency, ...). */
  server: ScriptedServerOptions;
  /** More vf eval flags, such as ["-n", "5", "-r", "2"]. */
  flags?: string[];
}

export interface EvalScriptedResult extends VfResult {
  /** The --json summary, when vf exited with 0. */
  // biome-ignore lint/suspicious/noExplicitAny: the summary's shape is what the test asserts
  summary: any;
  /** Every request the model received, as chat messages whatever the API. */
  requests: ScriptedRequest[];
  /** The API each request came in on (follows --api-client-type). */
  apis: ScriptedApi[];
  /** The HTTP headers of each request. */
  headers: IncomingHttpHeaders[];
}

export async function evalScripted(envId: string, options: EvalScriptedOptions): Promise<EvalScriptedResult> {
  const { server: serverOptions, flags = [], ...run } = options;
  const server = await startScriptedServer(serverOptions);
  try {
    const result = await runVf(["eval", envId, "-m", "scripted", "-b", server.url, ...flags, "--json"], run);
    const summary = result.code === 0 ? JSON.parse(result.stdout) : undefined;
    return { ...result, summary, requests: server.requests, apis: server.apis, headers: server.headers };
  } finally {
    await server.close();
  }
}

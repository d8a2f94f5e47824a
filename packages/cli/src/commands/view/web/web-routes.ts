/**
 * The pages of `vf view --web` by path: / (runs), /run (one run's rollouts, filtered), /rollout (one
 * rollout), /diff (two runs example by example) and /compare (one example in both). A run is named by
 * its path under the served folder (run-store.ts). What a user asked wrongly is a 400 or 404 page
 * saying so; anything else is ours, a 500 with the message.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { UserError } from "@vf-rl/core/errors";
import { html } from "@vf-rl/hub/rollout-html";
import { type CompareSide, comparePage } from "./compare-page.ts";
import { diffPage } from "./diff-page.ts";
import { pageFrame } from "./page-frame.ts";
import { readFilter } from "./rollout-filter.ts";
import { rolloutPage } from "./rollout-page.ts";
import { runPage } from "./run-page.ts";
import { RunNotFoundError, type RunStore } from "./run-store.ts";
import { runsPage } from "./runs-page.ts";
import { tokenTextFor } from "./token-text.ts";

/** A request the pages cannot answer as asked. */
class BadRequestError extends UserError {}

type Page = (params: URLSearchParams, store: RunStore) => Promise<string>;

const PAGES: Record<string, Page> = {
  "/": async (params, store) => {
    const runs = await store.list();
    const query = params.get("q")?.trim() ?? "";
    return runsPage({ dir: store.root, runs, key: (entry) => store.key(entry), query });
  },
  "/run": async (params, store) =>
    runPage({
      dir: store.root,
      opened: await store.open(required(params, "run")),
      filter: readFilter(params),
    }),
  "/rollout": async (params, store) => {
    const opened = await store.open(required(params, "run"));
    const index = Number(required(params, "i"));
    if (!Number.isInteger(index) || !opened.run.records[index])
      throw new RunNotFoundError(
        `run ${opened.key} has no rollout ${params.get("i")}: pick one from its list`,
      );
    return rolloutPage({
      dir: store.root,
      opened,
      index,
      tokenText: await tokenTextFor(opened.run.metadata.model),
      filter: readFilter(params),
    });
  },
  "/diff": async (params, store) => {
    const keys = params.getAll("run");
    if (keys.length !== 2) throw new BadRequestError(`tick two runs to compare (${keys.length} given)`);
    const [first, second] = await Promise.all(keys.map((key) => store.open(key)));
    // The older run is the one before.
    const [before, after] =
      first!.listing.date <= second!.listing.date ? [first!, second!] : [second!, first!];
    return diffPage({ dir: store.root, before, after });
  },
  "/compare": async (params, store) => {
    const exampleId = Number(required(params, "example"));
    if (!Number.isInteger(exampleId)) throw new BadRequestError(`example must be a whole number`);
    const side = async (name: string): Promise<CompareSide> => {
      const opened = await store.open(required(params, name));
      return { opened, tokenText: await tokenTextFor(opened.run.metadata.model) };
    };
    return comparePage({
      dir: store.root,
      exampleId,
      before: await side("before"),
      after: await side("after"),
    });
  },
};

/** Answers one request; never throws (a failure is an error page). */
export async function handleRequest(
  store: RunStore,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  // Prefixed, not resolved against a base: "//x" would otherwise read as a host named x.
  const url = new URL(`http://localhost${request.url ?? "/"}`);
  const page = PAGES[url.pathname];
  if (request.method !== "GET" || !page)
    return send(response, 404, errorPage(store, "Not found", `no page ${url.pathname}`));
  try {
    send(response, 200, await page(url.searchParams, store));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const status = error instanceof RunNotFoundError ? 404 : error instanceof UserError ? 400 : 500;
    send(
      response,
      status,
      errorPage(store, status === 500 ? "Something went wrong" : "Cannot show this", message),
    );
  }
}

function required(params: URLSearchParams, name: string): string {
  const value = params.get(name);
  if (value === null || value === "") throw new BadRequestError(`the address lacks ${name}=`);
  return value;
}

function errorPage(store: RunStore, title: string, message: string): string {
  const body = html`<div class="card"><h1>${title}</h1><p>${message}</p><p><a href="/">← runs</a></p></div>`;
  return pageFrame({ title, dir: store.root, body });
}

function send(response: ServerResponse, status: number, body: string): void {
  response.writeHead(status, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
  response.end(body);
}

// The README's MCP example runs: the model is offered the server's tools, calls one, and reads what
// the server answered; teardown stops the server.
import { evaluateScripted } from "@vf-rl/core/testing";
import { afterAll, describe, expect, it } from "vitest";
import { env } from "./mcp-tools.ts";

afterAll(async () => {
  await env.teardown();
});

describe("README example: tools from an MCP server", () => {
  it("offers the server's tools and gives the model their results", async () => {
    const result = await evaluateScripted(env, {
      reply: (request) =>
        request.messages.at(-1)?.role === "tool"
          ? "London"
          : {
              type: "message",
              toolCalls: [{ name: "search_pages", arguments: { query: "Victoria and Albert Museum" } }],
            },
    });
    expect(result.requests[0]!.tools?.map((t) => t.function.name)).toEqual([
      "search_pages",
      "view_sections",
      "read_section",
    ]);
    const hits = JSON.parse(String(result.requests[1]!.messages.at(-1)!.content));
    expect(hits[0]).toEqual({ page_id: "victoria_and_albert_museum", title: "Victoria and Albert Museum" });
    expect(result.records[0]!.metrics).toMatchObject({ search_pages_calls: 1, num_turns: 2 });
  });
});

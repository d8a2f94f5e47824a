// The bundled MCP server as any MCP client sees it: started over stdio the way the environment
// starts it, listing its three tools and answering them, bad ids as error results.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { wikiServerCommand } from "./wiki-server-main.ts";

let client: Client;
beforeAll(async () => {
  client = new Client({ name: "wiki-search test", version: "0" });
  await client.connect(new StdioClientTransport({ ...wikiServerCommand(), stderr: "pipe" }));
});
afterAll(async () => {
  await client?.close();
});

const text = (result: Awaited<ReturnType<Client["callTool"]>>) =>
  (result.content as Array<{ type: string; text: string }>).map((c) => c.text).join("");

describe("the wiki-search MCP server", () => {
  it("lists search_pages, view_sections and read_section with their argument schemas", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["search_pages", "view_sections", "read_section"]);
    expect(tools[0]!.inputSchema).toMatchObject({
      type: "object",
      properties: { query: { type: "string" } },
      required: ["query"],
    });
    expect(tools.every((t) => t.annotations?.readOnlyHint === true)).toBe(true);
  });

  it("searches, lists sections and reads one", async () => {
    const hits = JSON.parse(
      text(
        await client.callTool({ name: "search_pages", arguments: { query: "Tesla alternating current" } }),
      ),
    );
    expect(hits[0]).toEqual({ page_id: "nikola_tesla", title: "Nikola Tesla" });
    const sections = JSON.parse(
      text(await client.callTool({ name: "view_sections", arguments: { page_id: "nikola_tesla" } })),
    );
    expect(sections[0].section_id).toBe("nikola_tesla#1");
    const section = text(
      await client.callTool({ name: "read_section", arguments: { section_id: "nikola_tesla#1" } }),
    );
    expect(section).toMatch(/^Nikola Tesla/);
  });

  it("answers a bad id with an error result that says what ids look like", async () => {
    const result = await client.callTool({ name: "read_section", arguments: { section_id: "nikola_tesla" } });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(
      /^"nikola_tesla" is not a section id: section ids look like "fresno_california#3"/,
    );
    const missing = await client.callTool({ name: "view_sections", arguments: {} });
    expect(missing.isError).toBe(true);
    expect(text(missing)).toMatch(/page_id/);
  });
});

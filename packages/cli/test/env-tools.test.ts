// `vf env tools`: an environment's tools listed, and served as an MCP server over stdio to a real
// MCP client (the SDK's), the same way an IDE or an agent would start it.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { runVf, VF_BIN } from "@vf-rl/test-support";
import { describe, expect, it } from "vitest";

/** A client connected to `vf env tools <env> --mcp`; closing it ends vf. */
async function serve(envId: string): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [VF_BIN, "env", "tools", envId, "--mcp"],
    env: { ...(process.env as Record<string, string>), NO_COLOR: "1" },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: "vf env tools test", version: "0" });
  await client.connect(transport, { timeout: 60_000 });
  return { client, stderr: () => stderr };
}

const text = (result: Awaited<ReturnType<Client["callTool"]>>) =>
  (result.content as Array<{ type: string; text: string }>).map((c) => c.text).join("");

describe("vf env tools", () => {
  it("lists each tool with its arguments and description, the MCP servers' included", async () => {
    const listed = await runVf(["env", "tools", "wiki-search"]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/^search_pages\(query: string\)\n {2}Search the pages: the best 5/);
    expect(listed.stdout).toContain("read_section(section_id: string)");
    const json = await runVf(["env", "tools", "gsm8k-calculator", "--json"]);
    expect(JSON.parse(json.stdout)[0]).toMatchObject({ type: "function", function: { name: "calculate" } });
    const none = await runVf(["env", "tools", "reverse-text"]);
    expect(none).toMatchObject({ code: 0, stdout: "" });
    expect(none.stderr).toBe("reverse-text offers no tools\n");
  });

  it("serves an environment's own tools to an MCP client, errors as error results", async () => {
    const { client, stderr } = await serve("gsm8k-calculator");
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(["calculate"]);
      expect(tools[0]!.inputSchema).toMatchObject({ type: "object", required: ["expression"] });
      expect(text(await client.callTool({ name: "calculate", arguments: { expression: "6*7" } }))).toBe("42");
      const bad = await client.callTool({ name: "calculate", arguments: { expression: "6*" } });
      expect(bad.isError).toBe(true);
      expect(text(bad)).toMatch(/^Error: calculate failed: /);
      const unknown = await client.callTool({ name: "nope", arguments: {} });
      expect(text(unknown)).toBe('Error: unknown tool "nope"; available tools: calculate');
      expect(stderr()).toContain("serving 1 tools of gsm8k-calculator over MCP on stdio");
    } finally {
      await client.close();
    }
  });

  it("serves tools that themselves come from an MCP server (wiki-search's bundled one)", async () => {
    const { client } = await serve("wiki-search");
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(["search_pages", "view_sections", "read_section"]);
      const hits = JSON.parse(
        text(await client.callTool({ name: "search_pages", arguments: { query: "Fresno" } })),
      );
      expect(hits[0].page_id).toBe("fresno_california");
      const bad = await client.callTool({ name: "view_sections", arguments: { page_id: "fresno" } });
      expect(bad.isError).toBe(true);
      expect(text(bad)).toMatch(/^Error: view_sections failed: no page "fresno": page ids look like/);
    } finally {
      await client.close();
    }
  });

  it("refuses to serve an environment without tools", async () => {
    const result = await runVf(["env", "tools", "reverse-text", "--mcp"]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/^error: reverse-text has no tools to serve: it is not a ToolEnv$/m);
  });
});

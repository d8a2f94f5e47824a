// McpConnection against real MCP servers written with the SDK: a stdio child process and a
// streamable-HTTP server on loopback, with tools that answer, fail, crash, hang and break the schema.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { McpServerError, McpToolError } from "../errors.ts";
import { type HttpTestServer, startHttpTestServer } from "./fixtures/http-test-server.ts";
import { isRunning, stdioTestServer, TSX } from "./fixtures/stdio-test-server.ts";
import { createTestToolServer } from "./fixtures/test-tool-server.ts";
import { McpConnection } from "./mcp-connection.ts";
import { McpServerConfig } from "./mcp-server-config.ts";

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected the call to fail");
}

let http: HttpTestServer;
beforeAll(async () => {
  http = await startHttpTestServer(createTestToolServer);
});
afterAll(async () => {
  await http?.close();
});

const kinds = {
  stdio: () => stdioTestServer(),
  http: () => McpServerConfig.parse({ type: "http", name: "tests", url: http.url }),
};

describe.each(Object.entries(kinds))("McpConnection over %s", (_kind, config) => {
  it("lists the server's tools with their JSON schemas and calls them", async () => {
    const connection = await McpConnection.open(config());
    try {
      const tools = await connection.listTools();
      expect(tools.map((t) => t.name)).toEqual([
        "echo",
        "count",
        "pid",
        "fail",
        "image",
        "crash",
        "hang",
        "malformed",
      ]);
      expect(tools[0]!.inputSchema).toMatchObject({ type: "object", required: ["text"] });
      expect(await connection.call("echo", { text: "hello" }, { timeoutMs: 20_000 })).toBe("hello");
      expect(await connection.call("count", {}, { timeoutMs: 20_000 })).toBe("1");
      expect(await connection.call("count", {}, { timeoutMs: 20_000 })).toBe("2");
      expect(await connection.call("image", {}, { timeoutMs: 20_000 })).toEqual([
        { type: "text", text: "a red dot:" },
        { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
      ]);
    } finally {
      await connection.close();
    }
  });

  it("turns an error result, a malformed result and a call that hangs into tool errors, and goes on", async () => {
    const connection = await McpConnection.open(config());
    try {
      const failed = await rejection(connection.call("fail", {}, { timeoutMs: 20_000 }));
      expect(failed).toBeInstanceOf(McpToolError);
      expect(failed.message).toBe("the test tool failed on purpose");
      const malformed = await rejection(connection.call("malformed", {}, { timeoutMs: 20_000 }));
      expect(malformed).toBeInstanceOf(McpToolError);
      expect(malformed.message).toMatch(
        /^MCP server "tests" returned a malformed result for malformed: content/,
      );
      const hung = await rejection(connection.call("hang", {}, { timeoutMs: 300 }));
      expect(hung).toBeInstanceOf(McpToolError);
      expect(hung.message).toBe('MCP server "tests" did not answer hang within 0.3 s');
      expect(await connection.call("echo", { text: "still here" }, { timeoutMs: 20_000 })).toBe("still here");
    } finally {
      await connection.close();
    }
  });

  it("stops a call when its signal aborts, with the signal's reason", async () => {
    const connection = await McpConnection.open(config());
    try {
      const abort = new AbortController();
      const call = connection.call("hang", {}, { timeoutMs: 60_000, signal: abort.signal });
      abort.abort(new Error("rollout cancelled"));
      expect((await rejection(call)).message).toBe("rollout cancelled");
    } finally {
      await connection.close();
    }
  });
});

describe("McpConnection to a stdio server", () => {
  it("reports a server that exits during a call, with the last line it wrote", async () => {
    const connection = await McpConnection.open(stdioTestServer());
    const crashed = await rejection(connection.call("crash", {}, { timeoutMs: 20_000 }));
    expect(crashed).toBeInstanceOf(McpServerError);
    expect(crashed.message).toMatch(
      /^MCP server "tests" closed the connection during crash \(.*\); its last output: test server: crashing on purpose; check its command: /,
    );
    await connection.closed;
    expect(connection.isClosed).toBe(true);
  });

  it("reports a server that exits before the handshake, and one whose command does not exist", async () => {
    const early = await rejection(McpConnection.open(stdioTestServer({}, ["--exit-at-start"])));
    expect(early).toBeInstanceOf(McpServerError);
    expect(early.message).toMatch(
      /^MCP server "tests" could not be started \(.*\); its last output: test server: cannot open its database/,
    );
    const missing = await rejection(
      McpConnection.open(stdioTestServer({ command: "/nonexistent/mcp-server" })),
    );
    expect(missing.message).toMatch(
      /^MCP server "tests" could not be started \(.*ENOENT.*\); check its command: \/nonexistent\/mcp-server$/,
    );
  });

  it("stops the server's process when closed", async () => {
    const connection = await McpConnection.open(stdioTestServer());
    const pid = Number(await connection.call("pid", {}, { timeoutMs: 20_000 }));
    expect(connection.pid).toBe(pid);
    expect(isRunning(pid)).toBe(true);
    await connection.close();
    await expect.poll(() => isRunning(pid), { timeout: 20_000 }).toBe(false);
  });
});

describe("a stdio server whose client is killed with SIGKILL", () => {
  it("exits, because its stdin closes", async () => {
    const holder = spawn(
      process.execPath,
      [
        "--import",
        TSX,
        fileURLToPath(new URL("./fixtures/hold-connection.ts", import.meta.url)),
        JSON.stringify(stdioTestServer()),
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    const [line] = (await once(createInterface({ input: holder.stdout! }), "line")) as [string];
    const pid = Number(line);
    expect(isRunning(pid)).toBe(true);
    holder.kill("SIGKILL");
    await expect.poll(() => isRunning(pid), { timeout: 20_000 }).toBe(false);
  });
});

describe("McpConnection to an HTTP server", () => {
  it("reports a URL where nothing answers", async () => {
    const config = McpServerConfig.parse({ type: "http", name: "gone", url: "http://127.0.0.1:9/mcp" });
    const error = await rejection(McpConnection.open(config));
    expect(error).toBeInstanceOf(McpServerError);
    expect(error.message).toMatch(
      /^MCP server "gone" could not be started \(.*\); check its URL: http:\/\/127\.0\.0\.1:9\/mcp$/,
    );
  });
});

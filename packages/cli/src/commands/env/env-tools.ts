/**
 * `vf env tools <env>`: the tools an environment offers the model, its MCP servers' included (their
 * names, descriptions and arguments), or with --mcp those tools served as an MCP server over stdio,
 * so any MCP client can try them. Served tools run as in a rollout of the split's first row: its
 * data made as a rollout's would be (a sandbox, a folder), cleaned up when the client disconnects.
 */
import type { Command } from "commander";
import { jsonObjectFlag } from "../../flag-values.ts";
import type { Output } from "../../terminal/output.ts";
import { toolSignature } from "../../terminal/tool-signature.ts";
import { vfCommand } from "../../vf-command.ts";

interface ToolsFlags {
  mcp?: boolean;
  json?: boolean;
  split: "train" | "eval";
  envArgs?: Record<string, unknown>;
}

export function registerEnvTools(env: Command, io: Output): void {
  env
    .command("tools")
    .description("list an environment's tools, or serve them as an MCP server over stdio (--mcp)")
    .argument("<env>", "environment id (wiki-search, owner/name@1.0.0) or package folder")
    .option("--mcp", "serve the tools over MCP on stdin/stdout until the client disconnects")
    .option("--json", "print the tool definitions as the model gets them (JSON)")
    .option("--split <split>", "with --mcp: tools run as in a rollout of this split's first row", "eval")
    .option("-a, --env-args <json>", "arguments for the environment's loadEnvironment", jsonObjectFlag("-a"))
    .addHelpText(
      "after",
      `
Examples:
  vf env tools wiki-search                      name(arguments) and description of each tool
  vf env tools wiki-search --mcp                for an MCP client's config: command "vf",
                                                args ["env", "tools", "wiki-search", "--mcp"]
  npx @modelcontextprotocol/inspector vf env tools gsm8k-calculator --mcp`,
    )
    .action(async (envId: string, flags: ToolsFlags) => {
      const { UsageError } = await import("../../cli-errors.ts");
      if (flags.split !== "train" && flags.split !== "eval") {
        throw new UsageError(`--split must be train or eval, got "${flags.split}"`);
      }
      if (flags.mcp && flags.json)
        throw new UsageError("--json lists the tools, --mcp serves them: give one");
      const { findEnvironment, loadEnvironmentById } = await import("@vf-rl/core/loading");
      if (findEnvironment(envId).packageJson.vf.kind === "taskset") {
        const { UserError } = await import("@vf-rl/core/errors");
        throw new UserError(
          `${envId} is a taskset: the tools its agent gets are its harness's (bash's bash tool, or an agent CLI's own), not the taskset's; list its tasks with ${vfCommand(`env tasks ${envId}`)}`,
        );
      }
      const { env, id } = await loadEnvironmentById(envId, { args: flags.envArgs ?? {} });
      try {
        // Duck-typed: an environment may bring its own copy of core, whose ToolEnv is another class.
        const tools = env as Partial<Pick<import("@vf-rl/core").ToolEnv, "listTools" | "openToolSession">>;
        if (flags.mcp) {
          if (typeof tools.openToolSession !== "function") {
            throw new UsageError(`${id} has no tools to serve: it is not a ToolEnv`);
          }
          const { inputs } = await env.inputs({ split: flags.split, numExamples: 1 });
          if (inputs[0] === undefined)
            throw new UsageError(`${id} has no ${flags.split} rows to run its tools for`);
          const session = await tools.openToolSession(inputs[0]);
          try {
            io.err(`serving ${session.definitions.length} tools of ${id} over MCP on stdio`);
            const { serveToolsOverStdio } = await import("@vf-rl/core/mcp");
            await serveToolsOverStdio(session, { name: id, version: "0.1.0" });
          } finally {
            await session.close();
          }
          return;
        }
        const definitions = typeof tools.listTools === "function" ? await tools.listTools() : env.toolDefs();
        if (flags.json) {
          io.out(JSON.stringify(definitions, null, 2));
        } else if (definitions.length === 0) {
          io.err(`${id} offers no tools`);
        } else {
          for (const d of definitions) {
            io.out(toolSignature(d));
            if (d.function.description) io.out(`  ${d.function.description}`);
          }
        }
      } finally {
        await env.teardown();
      }
    });
}

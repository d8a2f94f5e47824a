/**
 * Runs the scripted server as its own process, for benchmarks that load it from another process.
 * Prints the base URL (ending in /v1) on stdout, then serves until SIGINT or SIGTERM.
 *
 * Usage: tsx scripted-server-main.ts [--reply echo|fixed:<text>|reference:<env>[@train]] [--port N]
 *        [--host H] [--latency-seconds S] [--tokens] [--record]
 *
 * `reference:<env>` answers like a perfect model of that environment (its rows' reference
 * completions, tool calls included; eval rows, or train rows with `@train`): for checks of other
 * programs against vf's servers, such as python/vf-bridge's check against the real verifiers.
 */
import { parseArgs } from "node:util";
import { loadEnvironmentById } from "../loading/load-environment.ts";
import { referenceReplies } from "./reference-replies.ts";
import { echoLastUser, fixedReply, type ReplyFn } from "./scripted-reply.ts";
import { startScriptedServer } from "./scripted-server.ts";

const USAGE =
  "usage: scripted-server-main [--reply echo|fixed:<text>|reference:<env>[@train]] [--port N] [--host H] [--latency-seconds S] [--tokens] [--record]";

async function replyFor(mode: string): Promise<ReplyFn> {
  if (mode === "echo") return echoLastUser;
  if (mode.startsWith("fixed:")) return fixedReply(mode.slice("fixed:".length));
  if (mode.startsWith("reference:")) {
    const [id = "", split] = mode.slice("reference:".length).split("@");
    const { env } = await loadEnvironmentById(id);
    return referenceReplies(env, { split: split === "train" ? "train" : "eval" });
  }
  throw new Error(`unknown --reply "${mode}": use echo, fixed:<text> or reference:<env>[@train]`);
}

function integerFlag(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0)
    throw new Error(`--${name} must be a non-negative integer, got "${value}"`);
  return parsed;
}

function secondsFlag(name: string, value: string | undefined): number {
  if (value === undefined) return 0;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed < 0)
    throw new Error(`--${name} must be a non-negative number of seconds, got "${value}"`);
  return parsed;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      reply: { type: "string", default: "echo" },
      port: { type: "string" },
      host: { type: "string", default: "127.0.0.1" },
      "latency-seconds": { type: "string" },
      tokens: { type: "boolean", default: false },
      record: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const server = await startScriptedServer({
    reply: await replyFor(values.reply),
    port: integerFlag("port", values.port, 0),
    host: values.host,
    latencySeconds: secondsFlag("latency-seconds", values["latency-seconds"]),
    tokens: values.tokens,
    record: values.record,
  });
  process.stdout.write(`${server.url}\n`);
  const stop = () => {
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `scripted-server: ${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`,
  );
  process.exit(2);
});

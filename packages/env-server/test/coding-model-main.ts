/**
 * The coding model of agent-support.ts as a program, for checks that run in another language
 * (python/vf-bridge/checks): prints its base URL (ending in /v1), then serves until SIGTERM.
 *
 * Usage: node --conditions=vf-source --import tsx coding-model-main.ts [MARKER]
 */
import { startCodingModel } from "./agent-support.ts";

const server = await startCodingModel(process.argv[2] ?? "vf-coding-model");
process.stdout.write(`${server.url}\n`);
const stop = () => {
  server.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.once("SIGINT", stop);
process.once("SIGTERM", stop);

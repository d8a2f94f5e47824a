/**
 * The scripted model of the wiki-search benchmark, in its own process: it answers every eval row
 * as the reference conversation does (search, list the sections, read one, answer). Prints its base
 * URL on stdout, then serves until SIGTERM.
 *
 *   node --conditions=vf-source --import tsx bench/wiki-search/reference-model-server.ts <numEval>
 */
import { loadEnvironment } from "@vf-env/wiki-search";
import { referenceReplies, startScriptedServer } from "@vf-rl/core/testing";

const numEval = Number(process.argv[2] ?? 640);
const env = await loadEnvironment({ numEval, tools: "in-process" });
const server = await startScriptedServer({ reply: await referenceReplies(env) });
process.stdout.write(`${server.url}\n`);
process.once("SIGTERM", () => void server.close().then(() => process.exit(0)));

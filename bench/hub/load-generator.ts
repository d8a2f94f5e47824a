/**
 * The load side of read-load.ts, run in its own process so it does not share a core's event loop with
 * the Hub: autocannon at `--connections` for `--seconds` on `--url`, cycling through `--paths` (JSON).
 * Prints autocannon's result as JSON on stdout.
 */
import { parseArgs } from "node:util";
import autocannon from "autocannon";

const { values } = parseArgs({
  options: {
    url: { type: "string" },
    paths: { type: "string" },
    connections: { type: "string", default: "64" },
    seconds: { type: "string", default: "10" },
  },
});
const paths = JSON.parse(values.paths ?? "[]") as string[];
let next = 0;
const result = await autocannon({
  url: values.url!,
  connections: Number(values.connections),
  duration: Number(values.seconds),
  headers: { accept: "application/json" },
  requests: [{ setupRequest: (request) => ({ ...request, path: paths[next++ % paths.length]! }) }],
});
process.stdout.write(JSON.stringify(result));

#!/usr/bin/env node
// The vf command. vf runs from its TypeScript sources (and loads TypeScript environment packages),
// so tsx's loader is registered before anything else is imported.
import { register } from "tsx/esm/api";

register();
// `vf ... | head`: a reader that closes the pipe early ends vf quietly, as it would any Unix tool.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error) => {
    if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
    throw error;
  });
}
const { main } = await import("../src/main.ts");
process.exitCode = await main(process.argv.slice(2));

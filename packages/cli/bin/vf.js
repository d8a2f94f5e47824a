#!/usr/bin/env node
// The vf command. An installed vf runs its built JavaScript (dist/). Inside vf's own repository,
// where the TypeScript sources sit beside this file, it runs them through tsx, and the "vf-source"
// export condition points every @vf-rl package at its sources too, so no build step is needed there.
// VF_FROM_BUILD=1 runs the built JavaScript there as well, as an install does: vf's test suite builds
// once and sets it, because compiling the sources costs each start about 0.8 s.
import { existsSync } from "node:fs";
import { register } from "node:module";

// `vf ... | head`: a reader that closes the pipe early ends vf quietly, as it would any Unix tool.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error) => {
    if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
    throw error;
  });
}

const source = new URL("../src/main.ts", import.meta.url);
let main;
if (existsSync(source) && process.env.VF_FROM_BUILD !== "1") {
  const tsx = await import("tsx/esm/api");
  tsx.register();
  register(new URL("./source-condition.js", import.meta.url));
  ({ main } = await import(source.href));
} else {
  ({ main } = await import("../dist/main.js"));
}
process.exitCode = await main(process.argv.slice(2));

#!/usr/bin/env node
// The vf command. vf runs from its TypeScript sources (and loads TypeScript environment packages),
// so tsx's loader is registered before anything else is imported.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../src/main.ts");
process.exitCode = await main(process.argv.slice(2));

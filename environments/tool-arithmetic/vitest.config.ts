import { defineConfig } from "vitest/config";

// The end-to-end tests start the vf binary, which takes a few seconds on a busy machine.
export default defineConfig({ test: { include: ["src/**/*.test.ts"], testTimeout: 30_000 } });

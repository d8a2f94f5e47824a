import { defineConfig } from "vitest/config";

// A rollout starts the bash agent (node) and a shell in its runtime.
export default defineConfig({ test: { include: ["src/**/*.test.ts"], testTimeout: 60_000 } });

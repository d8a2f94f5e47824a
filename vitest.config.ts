import { defineConfig } from "vitest/config";

// "vf-source": inside this repository every @vf-rl package resolves to its TypeScript sources
// (published packages resolve to their built dist/ instead).
// Vite's defaults for server-side code follow the added condition.
export default defineConfig({
  ssr: { resolve: { conditions: ["vf-source", "module", "node", "development|production"] } },
  test: {
    include: [
      "packages/*/src/**/*.test.ts",
      "packages/*/test/**/*.test.ts",
      "environments/*/src/**/*.test.ts",
      "examples/**/*.test.ts",
    ],
    // Generous: CI's machine is shared and busy, and tests start real processes and servers whose
    // own waits go up to a minute or two. A hang still fails; a slow machine does not.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Most test files wait on processes and servers they start, not on the CPU: on two cores,
    // vitest's default (one file at a time) left the machine idle half the time.
    maxWorkers: 3,
    // Builds the packages first: the `vf` processes tests start run the built JavaScript.
    globalSetup: ["./scripts/test-global-setup.ts"],
    reporters: ["default", "./scripts/slowest-files-reporter.ts"],
  },
});

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
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});

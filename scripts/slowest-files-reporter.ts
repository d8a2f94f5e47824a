/**
 * A vitest reporter that ends a run with its ten slowest test files, so whoever makes the suite
 * slower sees it (and whoever speeds it up knows where to look). Used beside the default reporter.
 */
import type { Reporter, TestModule } from "vitest/node";

const SHOWN = 10;

export default class SlowestFilesReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const timed = modules
      .map((module) => ({ file: module.relativeModuleId, ms: module.diagnostic().duration }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, SHOWN);
    if (timed.length === 0) return;
    const lines = timed.map(({ file, ms }) => `  ${(ms / 1000).toFixed(1).padStart(7)} s  ${file}`);
    process.stdout.write(`\nslowest test files:\n${lines.join("\n")}\n`);
  }
}

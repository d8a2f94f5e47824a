/**
 * How long vf takes to answer before it does any work: `vf --help`, a command's help, a typo'd
 * flag, and `vf train --dry-run` (which reads and checks a config), each the median of several
 * runs in a fresh process. The floor in the same run: Node alone, and Node with tsx's loader
 * registered and commander imported, which every start from the TypeScript sources pays.
 *
 *   npx tsx bench/cli/startup.ts [--runs 15] [--vf path/to/bin/vf.js]
 *
 * --vf times another vf: an installed one (`<project>/node_modules/@vf-rl/cli/bin/vf.js`, which runs
 * its built JavaScript, against this repository's, which runs its TypeScript sources through tsx),
 * or another checkout's (a `git worktree` of an older commit inside this repo, so that it resolves
 * the same node_modules).
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";

const repo = join(import.meta.dirname, "..", "..");
const flag = (name: string): string | undefined => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const vf = flag("--vf") ?? join(repo, "packages", "cli", "bin", "vf.js");
const runs = Number(flag("--runs") ?? 15);

const floor = ['import { register } from "tsx/esm/api";', "register();", 'await import("commander");'].join(
  "\n",
);

const cases: Array<{ name: string; args: string[] }> = [
  { name: "node -e 0", args: ["-e", "0"] },
  { name: "node + tsx loader + commander", args: ["--input-type=module", "-e", floor] },
  { name: "vf --help", args: [vf, "--help"] },
  { name: "vf eval --help", args: [vf, "eval", "--help"] },
  { name: "vf eval --hlp (usage error)", args: [vf, "eval", "--hlp"] },
  { name: "vf train --help", args: [vf, "train", "--help"] },
  { name: "vf train … --dry-run", args: [vf, "train", "configs/train/reverse-text.toml", "--dry-run"] },
];

function timeOnce(args: string[]): number {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { cwd: repo, stdio: ["ignore", "ignore", "pipe"] });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0 && !args.includes("--hlp")) {
    throw new Error(`${args.join(" ")} exited with ${result.status}: ${result.stderr}`);
  }
  return ms;
}

const median = (xs: number[]): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

console.log(`startup, median of ${runs} runs each (ms)`);
for (const { name, args } of cases) {
  timeOnce(args); // warm tsx's transform cache and the page cache
  const times = Array.from({ length: runs }, () => timeOnce(args));
  console.log(
    `${name.padEnd(32)} ${median(times).toFixed(0).padStart(6)}   min ${Math.min(...times).toFixed(0)}`,
  );
}

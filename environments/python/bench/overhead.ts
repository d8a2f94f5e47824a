// Prints what the Python sandbox costs on this machine:
// `npx tsx --conditions=vf-source environments/python/bench/overhead.ts`.
import { execFileSync } from "node:child_process";
import { measureOverhead, SandboxOptions } from "../src/index.ts";

const overhead = await measureOverhead(SandboxOptions.parse({}), { starts: 20, calls: 500 });
const plain: number[] = [];
for (let i = 0; i < 20; i++) {
  const at = performance.now();
  execFileSync("/usr/bin/python3", ["-I", "-S", "-c", "pass"]);
  plain.push(performance.now() - at);
}
plain.sort((a, b) => a - b);
console.log(JSON.stringify({ ...overhead, plainPythonStartMs: Math.round(plain[10]! * 100) / 100 }, null, 2));

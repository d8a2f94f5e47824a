// Prints how many requests of a Common Log Format file got each status code:
//   node tools/status-counts.mjs access-log.txt
import { readFileSync } from "node:fs";

const LINE = /^(\S+) \S+ \S+ \[([^\]]+)\] "([^"]*)" (\d{3}) (\d+|-)$/;

const file = process.argv[2];
if (!file) {
  console.error("usage: node tools/status-counts.mjs FILE");
  process.exit(2);
}
const counts = new Map();
for (const line of readFileSync(file, "utf8").split("\n")) {
  const match = LINE.exec(line);
  if (!match) continue;
  counts.set(match[4], (counts.get(match[4]) ?? 0) + 1);
}
for (const [status, count] of [...counts].sort()) console.log(`${status} ${count}`);

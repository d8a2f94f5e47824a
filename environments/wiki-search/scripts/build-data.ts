/**
 * Builds data/pages.jsonl.gz and data/questions.jsonl.gz from SQuAD v1.1's dev set: either the
 * official dev-v1.1.json, or the two halves of Du et al.'s split (their dev and test files), which
 * together are the same 48 articles. Either input gives byte-identical files.
 *
 *   npm run build-data -- path/to/dev-v1.1.json
 *   npm run build-data -- path/to/dev-v1.1-half.json path/to/test-v1.1-half.json [--out data]
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import { SquadFile, squadToWiki } from "../src/squad-to-wiki.ts";

/** Writes `rows` as gzipped JSONL; gzip's header has no time in it, so the bytes depend on the rows only. */
function writeJsonlGz(path: string, rows: readonly unknown[]): number {
  const bytes = gzipSync(rows.map((row) => `${JSON.stringify(row)}\n`).join(""), { level: 9 });
  writeFileSync(path, bytes);
  return bytes.length;
}

function main(argv: string[]): void {
  const { values, positionals: inputs } = parseArgs({
    args: argv,
    options: { out: { type: "string" } },
    allowPositionals: true,
  });
  const out = values.out ?? fileURLToPath(new URL("../data/", import.meta.url));
  if (inputs.length === 0) {
    console.error("usage: build-data.ts <dev-v1.1.json | two halves of it> [--out folder]");
    process.exitCode = 2;
    return;
  }
  const files = inputs.map((path) => {
    const text = readFileSync(path, "utf8");
    console.log(`${path}: sha256 ${createHash("sha256").update(text).digest("hex")}`);
    return SquadFile.parse(JSON.parse(text));
  });
  const { pages, questions } = squadToWiki(files);
  mkdirSync(out, { recursive: true });
  const pageBytes = writeJsonlGz(join(out, "pages.jsonl.gz"), pages);
  const questionBytes = writeJsonlGz(join(out, "questions.jsonl.gz"), questions);
  const sections = pages.reduce((sum, page) => sum + page.sections.length, 0);
  const evalCount = questions.filter((q) => q.split === "eval").length;
  console.log(
    `${pages.length} pages, ${sections} sections (${pageBytes} bytes); ` +
      `${questions.length} questions, ${questions.length - evalCount} train and ${evalCount} eval (${questionBytes} bytes)`,
  );
}

main(process.argv.slice(2));

import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parquetWriteBuffer } from "hyparquet-writer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DatasetError } from "../errors.ts";
import { loadDataset } from "./load-dataset.ts";
import { loadJson } from "./load-json.ts";
import { loadJsonl } from "./load-jsonl.ts";
import { loadParquet } from "./load-parquet.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "vf-datasets-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function file(name: string, content: string | ArrayBuffer): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, typeof content === "string" ? content : new Uint8Array(content));
  return path;
}

/** `text` as a literal inside a regular expression (temporary paths may hold any character). */
const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

async function failure(load: Promise<unknown>): Promise<DatasetError> {
  const error = await load.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(DatasetError);
  return error as DatasetError;
}

describe("loadJsonl", () => {
  it("reads one row per line, skipping blank lines and a byte-order mark", async () => {
    const path = await file(
      "rows.jsonl",
      '\uFEFF{"question": "2+2?", "answer": 4}\r\n\n{"prompt": [{"role": "user", "content": "Hi"}], "answer": "hello"}\n',
    );
    const dataset = await loadJsonl(path);
    expect(dataset.examples.map((example) => [example.exampleId, example.answer])).toEqual([
      [0, "4"],
      [1, "hello"],
    ]);
  });

  it("names the line of malformed JSON", async () => {
    const path = await file("broken.jsonl", '{"question": "a"}\n\n{"question": "b",\n');
    const error = await failure(loadJsonl(path));
    expect(error.message).toMatch(
      new RegExp(`^${literal(path)} line 3: not valid JSON \\(.+\\): each line must hold one JSON object$`),
    );
    expect(error.line).toBe(3);
    expect(error.path).toBe(path);
  });

  it("names the line of a value that is not an object", async () => {
    const path = await file("array.jsonl", '{"question": "a"}\n[1, 2]\n');
    expect((await failure(loadJsonl(path))).message).toBe(
      `${path} line 2: expected a JSON object, got an array: each line must hold one row object`,
    );
  });

  it("names the line and field of a row that fails validation", async () => {
    const path = await file(
      "bad-info.jsonl",
      '{"question": "a"}\n\n{"question": "b", "info": "{not json"}\n',
    );
    const error = await failure(loadJsonl(path));
    expect(error.message).toMatch(
      new RegExp(`^${literal(path)} line 3 \\(row 1\\): info: is a string but not valid JSON`),
    );
    expect(error.line).toBe(3);
  });
});

describe("loadJson", () => {
  it("reads an array of rows", async () => {
    const dataset = await loadJson(
      await file("array.json", '[{"question": "a"}, {"question": "b", "example_id": 7}]'),
    );
    expect(dataset.examples.map((example) => example.question)).toEqual(["a", "b"]);
  });

  it('reads {"rows": [...]}', async () => {
    const dataset = await loadJson(await file("rows.json", '{"rows": [{"question": "a", "answer": "1"}]}'));
    expect(dataset.examples[0]!.answer).toBe("1");
  });

  it("says what shape it expects", async () => {
    const path = await file("object.json", '{"data": []}');
    expect((await failure(loadJson(path))).message).toBe(
      `${path} holds an object without a "rows" array, not rows: a JSON dataset is an array of rows or an object {"rows": [...]}`,
    );
  });

  it("recognises JSON Lines saved as .json", async () => {
    const path = await file("lines.json", '{"question": "a"}\n{"question": "b"}\n');
    expect((await failure(loadJson(path))).message).toMatch(
      /looks like JSON Lines .*: rename it to \.jsonl$/,
    );
  });
});

describe("loadParquet", () => {
  it("reads flat columns, with 64-bit integers as numbers", async () => {
    const buffer = parquetWriteBuffer({
      columnData: [
        { name: "question", data: ["2+2?", "3+3?"], type: "STRING" },
        { name: "answer", data: [4n, 6n], type: "INT64" },
        { name: "example_id", data: [100n, 200n], type: "INT64" },
        { name: "info", data: ['{"level": 1}', '{"level": 2}'], type: "STRING" },
        { name: "difficulty", data: [0.5, 0.75], type: "DOUBLE" },
      ],
    });
    const dataset = await loadParquet(await file("flat.parquet", buffer));
    expect(dataset.examples).toEqual([
      { exampleId: 100, question: "2+2?", answer: "4", info: { difficulty: 0.5, level: 1 }, task: "default" },
      {
        exampleId: 200,
        question: "3+3?",
        answer: "6",
        info: { difficulty: 0.75, level: 2 },
        task: "default",
      },
    ]);
    expect(JSON.stringify(dataset.examples)).toContain('"exampleId":100');
  });

  it("reads chat prompts and info objects from nested columns", async () => {
    const buffer = parquetWriteBuffer({
      columnData: [
        {
          name: "prompt",
          data: [
            [
              { role: "system", content: "Be brief." },
              { role: "user", content: "Hi" },
            ],
          ],
        },
        { name: "info", data: [{ env_id: "greet" }] },
      ],
    });
    const [example] = await loadParquet(await file("nested.parquet", buffer));
    expect(example!.prompt).toEqual([
      { role: "system", content: "Be brief." },
      { role: "user", content: "Hi" },
    ]);
    expect(example!.info).toEqual({ env_id: "greet" });
  });

  it("reports the row and field of a bad cell", async () => {
    const buffer = parquetWriteBuffer({
      columnData: [
        { name: "question", data: ["a", null], type: "STRING" },
        { name: "answer", data: ["1", "2"], type: "STRING" },
      ],
    });
    const path = await file("missing-question.parquet", buffer);
    expect((await failure(loadParquet(path))).message).toBe(
      `${path} row 1: has neither a "prompt" nor a "question" column: give every row a "prompt" (chat messages) or a "question" (string)`,
    );
  });

  it("refuses a file that is not Parquet", async () => {
    const path = await file("fake.parquet", "question,answer\n2+2?,4\n");
    expect((await failure(loadParquet(path))).message).toMatch(
      new RegExp(
        `^${literal(path)} is not a readable Parquet file \\(.+\\): check the file, or convert it to JSONL$`,
      ),
    );
  });
});

describe("loadDataset", () => {
  it("chooses the loader by extension", async () => {
    const jsonl = await file("by-ext.JSONL", '{"question": "from jsonl"}\n');
    const json = await file("by-ext.json", '[{"question": "from json"}]');
    const parquet = await file(
      "by-ext.parquet",
      parquetWriteBuffer({ columnData: [{ name: "question", data: ["from parquet"], type: "STRING" }] }),
    );
    for (const [path, question] of [
      [jsonl, "from jsonl"],
      [json, "from json"],
      [parquet, "from parquet"],
    ] as const) {
      expect((await loadDataset(path)).examples[0]!.question).toBe(question);
    }
  });

  it("names a missing file in one line", async () => {
    const path = join(dir, "nope.jsonl");
    const error = await failure(loadDataset(path));
    expect(error.message).toBe(`dataset file not found: ${path} (resolved to ${path}): check the path`);
    expect(error.message).not.toContain("\n");
    expect(error.path).toBe(path);
  });

  it("refuses a folder and an unknown extension", async () => {
    const folder = join(dir, "folder.jsonl");
    await mkdir(folder);
    expect((await failure(loadDataset(folder))).message).toMatch(/is a folder, not a file/);
    expect((await failure(loadDataset(join(dir, "rows.csv")))).message).toBe(
      `cannot load ${join(dir, "rows.csv")}: ".csv" files are not datasets vf reads: use .jsonl, .json or .parquet`,
    );
  });
});

import { describe, expect, it } from "vitest";
import { AuthoringError, DatasetError } from "../errors.ts";
import { Dataset } from "./dataset.ts";

const questions = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ question: `What is ${i} + ${i}?`, answer: 2 * i }));
const ids = (dataset: Dataset) => dataset.examples.map((example) => example.exampleId);

describe("Dataset.fromRows", () => {
  it("normalises rows into examples numbered 0..n-1", () => {
    const dataset = Dataset.fromRows([
      { question: "2+2?", answer: 4 },
      { prompt: [{ role: "user", content: "Hi" }], task: "chat", info: '{"lang":"en"}' },
    ]);
    expect(dataset.length).toBe(2);
    expect(dataset.examples).toEqual([
      { exampleId: 0, question: "2+2?", answer: "4", info: {}, task: "default" },
      {
        exampleId: 1,
        prompt: [{ role: "user", content: "Hi" }],
        answer: "",
        info: { lang: "en" },
        task: "chat",
      },
    ]);
  });

  it("keeps integer example ids", () => {
    expect(
      ids(
        Dataset.fromRows([
          { question: "a", example_id: 10 },
          { question: "b", example_id: 3 },
        ]),
      ),
    ).toEqual([10, 3]);
  });

  it("renumbers rows whose ids are not integers and keeps the old id as info.src_id", () => {
    const dataset = Dataset.fromRows([
      { question: "a", example_id: "gsm-17" },
      { question: "b", example_id: "gsm-4" },
    ]);
    expect(ids(dataset)).toEqual([0, 1]);
    expect(dataset.examples.map((example) => example.info.src_id)).toEqual(["gsm-17", "gsm-4"]);
  });

  it("renumbers every row when only some have integer ids", () => {
    const dataset = Dataset.fromRows([{ question: "a", example_id: 5 }, { question: "b" }]);
    expect(ids(dataset)).toEqual([0, 1]);
    expect(dataset.examples[0]!.info.src_id).toBe(5);
    expect(dataset.examples[1]!.info).toEqual({});
  });

  it("refuses repeated ids", () => {
    expect(() =>
      Dataset.fromRows([
        { question: "a", example_id: 1 },
        { question: "b", example_id: 1 },
      ]),
    ).toThrow(
      "dataset row 1: example_id 1 is also the id of row 0: make the ids unique, or drop the example_id column",
    );
  });

  it("keeps unknown columns in info, where info's own keys win", () => {
    const [example] = Dataset.fromRows([
      { question: "q", level: "hard", source: "column", info: { source: "info" } },
    ]);
    expect(example!.info).toEqual({ level: "hard", source: "info" });
  });

  it("names the source, the row, the line and the field of a bad row, and counts the others", () => {
    const rows = [{ question: "ok" }, { question: "q", answer: [1] }, { answer: "x" }];
    let error: unknown;
    try {
      Dataset.fromRows(rows, { source: "train.jsonl", path: "train.jsonl", lines: [1, 3, 4] });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(DatasetError);
    expect((error as DatasetError).message).toBe(
      "train.jsonl line 3 (row 1): answer: must be a string or a number: give answer as a string or a number (1 more rows have problems too)",
    );
    expect((error as DatasetError).path).toBe("train.jsonl");
    expect((error as DatasetError).line).toBe(3);
  });

  it("accepts an empty list", () => {
    expect(Dataset.fromRows([]).length).toBe(0);
  });
});

describe("Dataset operations", () => {
  const dataset = Dataset.fromRows(questions(10));

  it("is iterable and immutable", () => {
    expect([...dataset].map((example) => example.answer)).toEqual(
      dataset.examples.map((example) => example.answer),
    );
    expect(Object.isFrozen(dataset.examples)).toBe(true);
    expect(Object.isFrozen(dataset.examples[0])).toBe(true);
  });

  it("shuffles reproducibly, with ids staying on their rows", () => {
    const shuffled = dataset.shuffle(3);
    expect(ids(shuffled)).toEqual(ids(dataset.shuffle(3)));
    expect(ids(shuffled)).not.toEqual(ids(dataset));
    for (const example of shuffled) expect(example.answer).toBe(String(2 * example.exampleId));
    expect(ids(dataset)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it("takes the first n, or everything for negative, missing or large n", () => {
    expect(ids(dataset.take(3))).toEqual([0, 1, 2]);
    expect(dataset.take(-1).length).toBe(10);
    expect(dataset.take().length).toBe(10);
    expect(dataset.take(50).length).toBe(10);
    expect(dataset.take(0).length).toBe(0);
    expect(() => dataset.take(1.5)).toThrow(AuthoringError);
    expect(() => dataset.take(1.5)).toThrow(/got 1.5: pass an integer, or -1 for all/);
  });

  it("filters and maps into new datasets", () => {
    expect(ids(dataset.filter((example) => example.exampleId % 2 === 0))).toEqual([0, 2, 4, 6, 8]);
    const upper = dataset.map((example) => ({ ...example, task: "math" }));
    expect(upper.examples.every((example) => example.task === "math")).toBe(true);
    expect(dataset.examples[0]!.task).toBe("default");
  });

  it("concatenates without renumbering", () => {
    const joined = dataset.take(2).concat(Dataset.fromRows(questions(2)));
    expect(ids(joined)).toEqual([0, 1, 0, 1]);
  });

  it("splits by size or fraction, reproducibly, each part in the original order", () => {
    const { train, eval: test } = dataset.split({ evalSize: 3, seed: 1 });
    expect(test.length).toBe(3);
    expect(train.length).toBe(7);
    expect([...ids(train), ...ids(test)].sort((a, b) => a - b)).toEqual(ids(dataset));
    expect(ids(test)).toEqual([...ids(test)].sort((a, b) => a - b));
    expect(ids(dataset.split({ evalSize: 3, seed: 1 }).eval)).toEqual(ids(test));
    expect(ids(dataset.split({ evalSize: 3, seed: 2 }).eval)).not.toEqual(ids(test));
    expect(dataset.split({ evalFraction: 0.25 }).eval.length).toBe(3);
    expect(dataset.split({ evalFraction: 0 }).train.length).toBe(10);
  });

  it("refuses impossible splits", () => {
    // Mistakes in an environment's code: one line naming the fix, not "an internal error of vf".
    for (const bad of [
      { evalSize: 11 },
      { evalSize: 2.5 },
      { evalFraction: 1.5 },
      { evalFraction: Number.NaN },
    ]) {
      expect(() => dataset.split(bad)).toThrow(AuthoringError);
    }
    expect(() => dataset.split({ evalSize: 11 })).toThrow(/from 0 to 10 .*, got 11: pass a count/);
    expect(() => dataset.split({ evalFraction: 1.5 })).toThrow(/between 0 and 1, got 1.5: pass a share/);
    expect(() => dataset.split({ evalSize: 2, seed: 0.5 })).toThrow(AuthoringError);
  });
});

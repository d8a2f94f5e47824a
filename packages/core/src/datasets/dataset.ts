/**
 * An immutable list of examples: every operation returns a new `Dataset` and leaves the old one as
 * it was. Nested values (prompt messages, `info` objects) are shared between datasets, not copied.
 *
 * @example
 * const dataset = Dataset.fromRows([{ question: "2+2?", answer: 4 }]);
 * const { train, eval: test } = (await loadDataset("data/train.jsonl")).split({ evalFraction: 0.1, seed: 0 });
 */
import { AuthoringError, DatasetError } from "../errors.ts";
import { DatasetRow, describeRowIssue, extraColumns } from "./dataset-row.ts";
import type { Example } from "./example.ts";
import { seededShuffle } from "./seeded-random.ts";

/** Options of `Dataset.fromRows`. */
export interface FromRowsOptions {
  /** Names the rows in error messages: a file path, an environment name. Default "dataset". */
  source?: string;
  /** The file the rows came from; set as `path` on errors. */
  path?: string;
  /** The 1-based line of each row in its file, for error messages (the JSONL loader passes it). */
  lines?: readonly number[];
}

/** Either an exact number of eval examples or a fraction of the dataset (rounded), and a seed (default 0). */
export type SplitOptions =
  | { evalSize: number; evalFraction?: undefined; seed?: number }
  | { evalFraction: number; evalSize?: undefined; seed?: number };

/** Rows of an environment: validated, normalised examples with their prompts; built with `Dataset.fromRows` or a loader. */
export class Dataset implements Iterable<Example> {
  private constructor(private readonly items: readonly Example[]) {
    Object.freeze(items);
  }

  /**
   * Validates rows against `DatasetRow` and normalises them into examples. Example ids: when every
   * row has an integer `example_id`, those ids are kept (and must be unique); otherwise rows are
   * numbered 0..n-1 in order and any `example_id` they had is kept as `info.src_id`.
   * Throws a `DatasetError` naming the first bad row, its line when known, and the field.
   */
  static fromRows(rows: readonly unknown[], options: FromRowsOptions = {}): Dataset {
    const source = options.source ?? "dataset";
    const where = (i: number) => {
      const line = options.lines?.[i];
      return line === undefined ? `${source} row ${i}` : `${source} line ${line} (row ${i})`;
    };
    const fail = (i: number, problem: string) =>
      new DatasetError(`${where(i)}: ${problem}`, options.path, options.lines?.[i]);

    const parsed: DatasetRow[] = [];
    let firstBad: { index: number; problem: string } | undefined;
    let badRows = 0;
    rows.forEach((row, index) => {
      const result = DatasetRow.safeParse(row);
      if (result.success) {
        parsed.push(result.data);
      } else {
        badRows++;
        firstBad ??= { index, problem: describeRowIssue(result.error) };
      }
    });
    if (firstBad) {
      const more = badRows > 1 ? ` (${badRows - 1} more rows have problems too)` : "";
      throw fail(firstBad.index, `${firstBad.problem}${more}`);
    }

    const givenIds = parsed.map((row) => integerId(row.example_id));
    const keepIds = parsed.length > 0 && givenIds.every((id) => id !== undefined);
    if (keepIds) {
      const seen = new Map<number, number>();
      givenIds.forEach((id, index) => {
        const earlier = seen.get(id!);
        if (earlier !== undefined) {
          throw fail(
            index,
            `example_id ${id} is also the id of row ${earlier}: make the ids unique, or drop the example_id column to number rows 0..n-1`,
          );
        }
        seen.set(id!, index);
      });
    }
    return new Dataset(
      parsed.map((row, index) =>
        toExample(row, keepIds ? givenIds[index]! : index, keepIds ? undefined : row.example_id),
      ),
    );
  }

  /** Number of examples. */
  get length(): number {
    return this.items.length;
  }

  /** The examples, in order. */
  get examples(): readonly Example[] {
    return this.items;
  }

  [Symbol.iterator](): Iterator<Example> {
    return this.items[Symbol.iterator]();
  }

  /** The examples in an order fixed by `seed`: the same on every run and platform. Ids stay with their rows. */
  shuffle(seed: number): Dataset {
    return new Dataset(seededShuffle(this.items, seed));
  }

  /** The first `n` examples; all of them when `n` is negative, undefined or larger than the dataset. */
  take(n?: number): Dataset {
    if (n === undefined || n < 0 || n >= this.items.length) return this;
    if (!Number.isInteger(n)) {
      throw new AuthoringError(
        `take(n) needs a whole number of examples, got ${n}: pass an integer, or -1 for all`,
      );
    }
    return new Dataset(this.items.slice(0, n));
  }

  /** The examples for which `predicate` is true, in order. */
  filter(predicate: (example: Example, index: number) => boolean): Dataset {
    return new Dataset(this.items.filter(predicate));
  }

  /** Each example replaced by `transform`'s result (ids are whatever it returns). */
  map(transform: (example: Example, index: number) => Example): Dataset {
    return new Dataset(this.items.map((example, index) => Object.freeze({ ...transform(example, index) })));
  }

  /**
   * This dataset's examples followed by the others'. Ids are not renumbered, so two datasets that
   * both start at 0 give repeated ids; rebuild with `fromRows` and fresh `example_id`s if they must
   * be unique (as `EnvGroup` does).
   */
  concat(...others: Dataset[]): Dataset {
    return new Dataset([...this.items, ...others.flatMap((other) => other.items)]);
  }

  /**
   * Splits into train and eval parts: the eval examples are drawn by a seeded shuffle, and both
   * parts keep the original order. `evalFraction` is rounded to a whole number of examples.
   */
  split(options: SplitOptions): { train: Dataset; eval: Dataset } {
    const n = this.items.length;
    let size: number;
    if (options.evalSize !== undefined) {
      size = options.evalSize;
      if (!Number.isInteger(size) || size < 0 || size > n) {
        throw new AuthoringError(
          `split's evalSize must be a whole number from 0 to ${n} (the dataset's size), got ${size}: pass a count in that range`,
        );
      }
    } else {
      const fraction = options.evalFraction;
      if (!(fraction >= 0 && fraction <= 1)) {
        throw new AuthoringError(
          `split's evalFraction must be between 0 and 1, got ${fraction}: pass a share such as 0.1, or evalSize for a count`,
        );
      }
      size = Math.round(fraction * n);
    }
    const order = seededShuffle(
      this.items.map((_, index) => index),
      options.seed ?? 0,
    );
    const inEval = new Set(order.slice(0, size));
    return {
      train: new Dataset(this.items.filter((_, index) => !inEval.has(index))),
      eval: new Dataset(this.items.filter((_, index) => inEval.has(index))),
    };
  }
}

function integerId(value: unknown): number | undefined {
  if (typeof value === "number" && Number.isSafeInteger(value)) return value;
  if (typeof value === "bigint" && value >= Number.MIN_SAFE_INTEGER && value <= Number.MAX_SAFE_INTEGER) {
    return Number(value);
  }
  return undefined;
}

function toExample(row: DatasetRow, exampleId: number, srcId: unknown): Example {
  const info = { ...extraColumns(row), ...(srcId !== undefined ? { src_id: srcId } : {}), ...row.info };
  return Object.freeze({
    exampleId,
    ...(row.prompt !== undefined ? { prompt: row.prompt } : {}),
    ...(row.question !== undefined ? { question: row.question } : {}),
    answer: row.answer,
    info,
    task: row.task,
  });
}

/** Datasets: validated input rows, normalised examples, prompts, and loaders for JSONL, JSON and Parquet. */
export { type BuildPromptOptions, buildPrompt } from "./build-prompt.ts";
export { Dataset, type FromRowsOptions, type SplitOptions } from "./dataset.ts";
export { DatasetRow } from "./dataset-row.ts";
export type { Example } from "./example.ts";
export { loadDataset } from "./load-dataset.ts";
export { loadJson } from "./load-json.ts";
export { loadJsonl } from "./load-jsonl.ts";
export { loadParquet } from "./load-parquet.ts";
export { type SeededRandom, seededRandom, seededShuffle } from "./seeded-random.ts";

// The datasets of packages/core/README.md (the authoring guide), as the guide shows them; guide.test.ts
// checks the sizes it states.
import { fileURLToPath } from "node:url";
import { Dataset, loadJsonl } from "@vf-rl/core";

// Rows of {"question": ..., "answer": ...}, shipped in the package (here beside this file).
const rows = await loadJsonl(fileURLToPath(new URL("./data/questions.jsonl", import.meta.url)));
const { train, eval: held } = rows.split({ evalSize: 2, seed: 0 }); // 3 to train on, 2 held out
const extra = Dataset.fromRows([{ question: "What is 1+1?", answer: "2", info: { level: "easy" } }]);
export const dataset = train.concat(extra).shuffle(0); // 4 rows, in an order fixed by the seed
export const evalDataset = held;

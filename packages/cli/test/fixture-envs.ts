/**
 * Small environment packages written into a test project's `environments/` folder, where
 * `vf eval <name>` finds them as it finds a user's own.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";

/**
 * `items`: rows "item 0" … "item N-1" (argument `rows`, default 40), rewarded for echoing the row.
 * Its `parity` metric raises a RangeError naming odd items and a TypeError on items 4, 14, 24, …,
 * so a run has two kinds of scoring error, one of them with a message per row.
 */
export const ITEMS_ENV = `
import { Dataset, defineEnvironment, lastAssistantText, Rubric, SingleTurnEnv } from "@vf-rl/core";
import { z } from "zod";

export const loadEnvironment = defineEnvironment({
  args: z.object({ rows: z.number().int().positive().default(40) }).strict(),
  load: ({ rows }) =>
    new SingleTurnEnv({
      dataset: Dataset.fromRows(
        Array.from({ length: rows }, (_, i) => ({ question: \`item \${i}\`, answer: \`item \${i}\` })),
      ),
      rubric: new Rubric()
        .addReward(({ completion, answer }) => lastAssistantText(completion) === answer, { name: "echoed" })
        .addMetric(
          ({ answer }) => {
            const i = Number(answer.split(" ")[1]);
            if (i % 2 === 1) throw new RangeError(\`item \${i} is odd\`);
            if (i % 10 === 4) throw new TypeError("cannot score a four");
            return i;
          },
          { name: "parity" },
        ),
    }),
});
`;

/** `words`: rows "Say apple." … answered with the word; reward 1 for the exact word. */
export const WORDS_ENV = `
import { Dataset, defineEnvironment, lastAssistantText, Rubric, SingleTurnEnv } from "@vf-rl/core";
import { z } from "zod";

const WORDS = ["apple", "river", "stone", "cloud", "maple", "tiger"];
export const loadEnvironment = defineEnvironment({
  args: z.object({}).strict(),
  load: () =>
    new SingleTurnEnv({
      dataset: Dataset.fromRows(WORDS.map((w) => ({ question: \`Say \${w}.\`, answer: w }))),
      rubric: new Rubric().addReward(({ completion, answer }) => lastAssistantText(completion) === answer, {
        name: "exact",
      }),
    }),
});
`;

/**
 * `judged`: the six WORDS rows, rewarded by a judge model at `judge_url` (a JudgeRubric) that says
 * "yes" or "no"; so scoring makes one model call per rollout, which a test can watch.
 */
export const JUDGED_ENV = `
import { Dataset, defineEnvironment, JudgeRubric, OpenAIModelClient, SingleTurnEnv } from "@vf-rl/core";
import { z } from "zod";

const WORDS = ["apple", "river", "stone", "cloud", "maple", "tiger"];
export const loadEnvironment = defineEnvironment({
  args: z.object({ judge_url: z.string() }).strict(),
  load: ({ judge_url }) => {
    const rubric = new JudgeRubric({
      client: new OpenAIModelClient({ baseUrl: judge_url, apiKey: "EMPTY" }),
      model: "scripted",
    });
    rubric.addReward(async (ctx) => ((await rubric.judge(ctx)).startsWith("yes") ? 1 : 0), { name: "judged" });
    return new SingleTurnEnv({
      dataset: Dataset.fromRows(WORDS.map((w) => ({ question: \`Say \${w}.\`, answer: w }))),
      rubric,
    });
  },
});
`;

/** Writes `environments/<name>` (package.json naming it an environment, src/index.ts) into `projectDir`. */
export async function writeEnvironment(projectDir: string, name: string, source: string): Promise<void> {
  const dir = join(projectDir, "environments", name);
  await mkdir(join(dir, "src"), { recursive: true });
  const manifest = {
    name,
    version: "0.1.0",
    type: "module",
    private: true,
    exports: { ".": "./src/index.ts" },
    vf: { id: name },
  };
  await writeFile(join(dir, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  await writeFile(join(dir, "src", "index.ts"), source);
}

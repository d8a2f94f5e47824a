// The environments of packages/core/README.md (the authoring guide), as the guide shows them:
// type-checked by `npm run check` and run against a scripted model by guide.test.ts.
import {
  Dataset,
  EnvGroup,
  type EnvResponse,
  lastAssistantText,
  type Messages,
  MultiTurnEnv,
  type MultiTurnEnvOptions,
  type RolloutState,
  Rubric,
  SingleTurnEnv,
  type ToolCallContext,
  ToolEnv,
  tool,
} from "@vf-rl/core";
import { z } from "zod";

const dataset = Dataset.fromRows([
  { question: "What is 6*7?", answer: "42" },
  { question: "What is 3*5?", answer: "15" },
]);
const evalDataset = Dataset.fromRows([{ question: "What is 2*9?", answer: "18" }]);
const rubric = new Rubric().addReward(
  ({ completion, answer }) => (lastAssistantText(completion).includes(answer) ? 1 : 0),
  { name: "says_answer" },
);

export const single = new SingleTurnEnv({
  dataset,
  evalDataset,
  systemPrompt: "Answer in <answer> tags.",
  rubric,
});

export class Guess extends MultiTurnEnv<{ tries: number }> {
  constructor(options: Omit<MultiTurnEnvOptions<{ tries: number }>, "initialData">) {
    super({ ...options, initialData: () => ({ tries: 0 }) });
  }

  protected override envResponse(messages: Messages, state: RolloutState<{ tries: number }>): EnvResponse {
    state.data.tries += 1;
    if (lastAssistantText(messages).includes(state.answer)) {
      return { messages: [{ role: "user", content: "Right." }], final: true };
    }
    return [{ role: "user", content: "Wrong, try again." }];
  }
}
export const guess = new Guess({ dataset, rubric, maxTurns: 5 });
guess.addStopCondition("gave_up", (state) => lastAssistantText(state.completion).includes("I give up"));

const multiply = tool({
  name: "multiply",
  description: "Multiply two numbers.",
  parameters: z.object({ a: z.number(), b: z.number() }),
  run: ({ a, b }) => String(a * b),
});
export const calculator = new ToolEnv({ dataset, rubric, tools: [multiply], maxTurns: 8 });

const readNote = tool({
  name: "read_note",
  description: "Read one of your notes by its title.",
  parameters: z.object({ title: z.string() }),
  run: ({ title }, ctx: ToolCallContext<{ notes: Map<string, string> }>) =>
    ctx.state.data.notes.get(title) ?? `no note titled "${title}"`,
});

export const notebook = new ToolEnv({
  dataset,
  rubric,
  tools: [readNote],
  initialData: (input) => ({ notes: new Map([["answer", input.answer]]) }),
});

export const both = new EnvGroup({ envs: [single, calculator], names: ["plain", "calculator"] });

// The rubrics of packages/core/README.md (the authoring guide), as the guide shows them: type-checked
// by `npm run check` and scored by guide.test.ts.
import {
  JudgeRubric,
  lastAssistantText,
  MathRubric,
  type ModelClient,
  OpenAIModelClient,
  Rubric,
  RubricGroup,
  XMLParser,
} from "@vf-rl/core";

const parser = new XMLParser(["think", "answer"], { answerField: "answer" });

export const rubric = new Rubric({ parser })
  .addReward(({ completion, answer }) => (parser.parseAnswer(completion) === answer ? 1 : 0), {
    name: "correct",
  })
  .addReward(({ completion }) => parser.formatScore(completion), { name: "format", weight: 0.2 })
  .addMetric(({ completion }) => lastAssistantText(completion).length, { name: "length" });

export const math = new MathRubric(); // correct_answer: the last \boxed{} equals the row's answer

export function judged(judgeUrl: string): JudgeRubric {
  const client: ModelClient = new OpenAIModelClient({ baseUrl: judgeUrl, apiKey: "EMPTY" });
  const judge = new JudgeRubric({ client, model: "gpt-4.1-nano" });
  judge.addReward(async (ctx) => ((await judge.judge(ctx)).trim().toLowerCase().startsWith("yes") ? 1 : 0), {
    name: "judge_says_yes",
  });
  return judge;
}

export const combined = new RubricGroup([
  new MathRubric(),
  new Rubric().addMetric(({ completion }) => lastAssistantText(completion).length, { name: "length" }),
]);

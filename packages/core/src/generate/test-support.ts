/** What the tests of generating and resuming runs share: an environment that asks for an echo. */
import { Dataset } from "../datasets/index.ts";
import { SingleTurnEnv } from "../envs/single-turn-env.ts";
import { lastAssistantText } from "../messages/message.ts";
import { Rubric } from "../rubrics/rubric.ts";

/** The rows `echo 0` ... `echo n-1`, each answered by itself. */
export function echoRows(n: number): Array<{ question: string; answer: string }> {
  return Array.from({ length: n }, (_, i) => ({ question: `echo ${i}`, answer: `echo ${i}` }));
}

/** An environment over `echoRows(n)`, rewarding an exact echo (reward function "exact"). */
export function echoEnv(n: number): SingleTurnEnv {
  const env = new SingleTurnEnv({
    dataset: Dataset.fromRows(echoRows(n)),
    rubric: new Rubric().addReward(({ completion, answer }) => lastAssistantText(completion) === answer, {
      name: "exact",
    }),
  });
  return env;
}

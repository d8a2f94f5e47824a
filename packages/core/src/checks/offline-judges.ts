/**
 * Keeps a rescore offline: every judge of the scorer (a `JudgeRubric`, alone or inside a
 * `RubricGroup`) is given a client that refuses the call with `OfflineModelCallError`, so a reward
 * that needs the judge is reported as a scoring error of that function instead of reaching a model.
 * The environment is loaded for the rescore alone, so changing its judges changes nothing else.
 */
import type { ModelClient } from "../client/model-client.ts";
import { JudgeRubric } from "../rubrics/judge-rubric.ts";
import { RubricGroup } from "../rubrics/rubric-group.ts";
import type { Scorer } from "../rubrics/scorer.ts";
import { OfflineModelCallError } from "./check-errors.ts";

/** A client that answers nothing: each call rejects with `OfflineModelCallError`. */
const offlineClient: ModelClient = {
  baseUrl: "offline",
  chat: async (request) => {
    throw new OfflineModelCallError(request.model);
  },
};

/** Points every judge of `scorer` at the offline client; returns how many it found. */
export function disconnectJudges<Data>(scorer: Scorer<Data>): number {
  if (scorer instanceof JudgeRubric) {
    Object.defineProperty(scorer, "client", { value: offlineClient });
    return 1;
  }
  if (scorer instanceof RubricGroup) {
    return scorer.rubrics.reduce((found, rubric) => found + disconnectJudges(rubric), 0);
  }
  return 0;
}

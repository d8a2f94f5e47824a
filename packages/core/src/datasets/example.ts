/** One normalised dataset row, as environments consume it. */
import type { Messages } from "../messages/message.ts";
import type { Info } from "../rollout/rollout-state.ts";

export interface Example {
  /** The row's id; every rollout of this row carries it, and groups are keyed by it. */
  readonly exampleId: number;
  /** The conversation to send, for rows with a `prompt` column. */
  readonly prompt?: Messages;
  /** The question to ask as a user message, for rows with a `question` column. */
  readonly question?: string;
  /** The reference answer; "" when the row has none. */
  readonly answer: string;
  /** Row metadata: the `info` column, plus every column vf does not know and `src_id`. */
  readonly info: Info;
  /** Which task the row belongs to; "default" unless the row says otherwise. */
  readonly task: string;
}

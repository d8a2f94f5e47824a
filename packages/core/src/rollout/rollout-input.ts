/**
 * What one rollout starts from: a dataset row after normalisation (the prompt is always messages,
 * `info` always an object, `example_id` always set).
 */
import type { Messages } from "../messages/message.ts";

/** Free-form per-row data handed to rewards and environments. */
export type Info = Record<string, unknown>;

/** One row as a rollout starts from it: prompt, answer, info and ids. */
export interface RolloutInput {
  /** Row of the dataset; the same for every rollout of that row. */
  exampleId: number;
  /** Which of the r rollouts of this row, 0..r-1. */
  rolloutIndex: number;
  prompt: Messages;
  answer: string;
  info: Info;
  task: string;
}

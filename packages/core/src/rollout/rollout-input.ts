/**
 * What one rollout starts from: a dataset row after normalisation (the prompt is always messages,
 * `info` always an object, `example_id` always set).
 */
import type { Messages } from "../messages/message.ts";

export type Info = Record<string, unknown>;

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

/**
 * A vf environment's row as verifiers v1 task data: what `vf env tasks` prints, what the `tasks`
 * method returns, and what `run` takes. The dataset row's example id is `idx`; the prompt is the
 * row's whole prompt (system prompt and few-shot turns included) as v1 typed messages; `answer`,
 * `info` and `task` ride beside it as task-specific fields, which verifiers' `WireTaskData` keeps.
 *
 * Reading is lenient in what verifiers' `TaskData` dumps besides (`name`, `image`, `resources`,
 * `network_allow`, ...): those are accepted and ignored, except `system_prompt` (prepended when the
 * prompt has no system message, as v1's `with_system_prompt` does for GEPA) and `timeout.agent`
 * (the rollout's time limit, in seconds).
 */
import type { Info, Messages, RolloutInput } from "@vf-rl/core";
import { z } from "zod";
import { fromWireMessages, toV1Message, type V1Message, WireMessage } from "./wire-messages.ts";

/** Task data as `run` reads it. */
export const TaskDataIn = z.looseObject({
  idx: z.number().int().nullish(),
  prompt: z.union([z.string(), z.array(WireMessage)]).nullish(),
  system_prompt: z.string().nullish(),
  answer: z.string().nullish(),
  info: z.union([z.record(z.string(), z.unknown()), z.string()]).nullish(),
  task: z.string().nullish(),
  timeout: z.looseObject({ agent: z.number().positive().nullish() }).nullish(),
});
export type TaskDataIn = z.infer<typeof TaskDataIn>;

/** Task data as the server writes it (`tasks`, `vf env tasks`). */
export interface TaskData {
  idx: number;
  prompt: V1Message[];
  answer: string;
  info: Info;
  task: string;
}

/** A rollout input (a dataset row) as task data. */
export function toTaskData(input: RolloutInput): TaskData {
  return {
    idx: input.exampleId,
    prompt: input.prompt.map(toV1Message),
    answer: input.answer,
    info: input.info,
    task: input.task,
  };
}

/** What one `run` starts from: the rollout input and the task's own time limit, if it sets one. */
export interface TaskRun {
  input: RolloutInput;
  /** The task's own time limit (verifiers' `timeout.agent`), in seconds. */
  timeoutSeconds?: number;
}

/** Task data (either side's shape) as a rollout input; throws a `TaskDataError` saying what is wrong. */
export function fromTaskData(raw: unknown, rolloutIndex = 0): TaskRun {
  const parsed = TaskDataIn.safeParse(raw);
  if (!parsed.success) {
    throw new TaskDataError(
      `task_data does not parse: ${z.prettifyError(parsed.error).replaceAll("\n", "; ")}`,
    );
  }
  const data = parsed.data;
  let prompt: Messages =
    typeof data.prompt === "string"
      ? [{ role: "user", content: data.prompt }]
      : fromWireMessages(data.prompt ?? []);
  if (data.system_prompt && prompt[0]?.role !== "system") {
    prompt = [{ role: "system", content: data.system_prompt }, ...prompt];
  }
  if (prompt.length === 0)
    throw new TaskDataError("task_data has no prompt: send prompt as a string or messages");
  const input: RolloutInput = {
    exampleId: data.idx ?? 0,
    rolloutIndex,
    prompt,
    answer: data.answer ?? "",
    info: readInfo(data.info),
    task: data.task ?? "default",
  };
  const agent = data.timeout?.agent;
  return typeof agent === "number" ? { input, timeoutSeconds: agent } : { input };
}

/** Bad task data in a request (the sender's fault). */
export class TaskDataError extends Error {
  override readonly name = "TaskDataError";
}

/** `info` as an object; verifiers also accepts it as a JSON string. */
export function readInfo(info: Record<string, unknown> | string | null | undefined): Info {
  if (info === null || info === undefined) return {};
  if (typeof info !== "string") return info;
  let parsed: unknown;
  try {
    parsed = JSON.parse(info);
  } catch {
    throw new TaskDataError(`info is a string but not JSON (${info.slice(0, 60)}): send an object`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new TaskDataError("info must be a JSON object");
  }
  return parsed as Info;
}

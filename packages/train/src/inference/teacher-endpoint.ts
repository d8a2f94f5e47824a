/**
 * The teacher of an on-policy distillation run ([algo] type = "opd"): a checkpoint served by the
 * engine in this process on a loopback port (as the policy's own server, inference-endpoint.ts),
 * or any OpenAI-compatible server at a URL that answers vLLM's `prompt_logprobs` (vLLM, vf serve).
 *
 * Distillation compares the two models' logprobs of the same token ids, so the teacher must
 * tokenize and template conversations as the student does. Before the run, both servers render
 * one probe conversation (a chat request with `return_token_ids`): different token ids stop the
 * run; a teacher that does not return them is noted as unchecked. The teacher then scores the
 * probe's tokens once, so a server without `prompt_logprobs` is refused before any sampling. Both
 * requests carry vLLM's fields, so they go as core's raw POST (`postJson`) of the servers' clients.
 */
import { OpenAIModelClient, UserError } from "@vf-rl/core";
import type { TeacherConfig } from "../config/algo-config.ts";
import { TeacherScorer } from "../rollouts/teacher-scorer.ts";
import { startLocalInference } from "./inference-endpoint.ts";
import { listedServer } from "./listed-server.ts";

/** A server the checks probe: the client that reaches it and the model it serves (an InferenceEndpoint is one). */
export interface ServedModel {
  client: OpenAIModelClient;
  model: string;
}

/** A teacher ready to score. */
export interface TeacherEndpoint {
  scorer: TeacherScorer;
  /** Where it is and what it serves, for the run's first lines. */
  description: string;
  /** What the checks could not check, one note each. */
  notes: string[];
  /** Closes the teacher's client, and stops its server when this process started it. */
  close(): Promise<void>;
}

/** The conversation both servers render for the tokenizer check: short, to fit any context. */
const PROBE = [
  { role: "system", content: "Be brief." },
  { role: "user", content: "Sort: pear, Fig." },
];

/** Starts or connects to the teacher, then checks it against the student's server. */
export async function openTeacher(teacher: TeacherConfig, student: ServedModel): Promise<TeacherEndpoint> {
  let server: ServedModel;
  let close: () => Promise<void>;
  let description: string;
  if (teacher.url === undefined) {
    const local = await startLocalInference(teacher.model!);
    server = local;
    close = () => local.close();
    description = `teacher ${teacher.model} at ${local.baseUrl}`;
  } else {
    const remote = await connectTeacher(teacher.url, teacher.model, teacher.api_key_var);
    server = remote;
    close = () => remote.client.close();
    description = `teacher ${remote.model} at ${remote.client.baseUrl}`;
  }
  try {
    const scorer = new TeacherScorer(server.client, server.model);
    const notes = await checkTeacher(scorer, student);
    return { scorer, description, notes, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** The teacher server at `url`, serving `model` (default: the first it lists), and a client for it. */
async function connectTeacher(
  url: string,
  model: string | undefined,
  apiKeyVar: string | undefined,
): Promise<ServedModel> {
  const listed = await listedServer(url, {
    model,
    apiKeyVar,
    hints: {
      what: "the teacher",
      start: "start it (vLLM, or vf serve --port 8001) and set algo.teacher.url to its URL ending in /v1",
      modelKey: "algo.teacher.model",
    },
  });
  return {
    client: new OpenAIModelClient({ baseUrl: listed.baseUrl, apiKey: listed.apiKey }),
    model: listed.model,
  };
}

/** Checks that the teacher renders the probe as the student does and scores prompts; returns notes. */
async function checkTeacher(teacher: TeacherScorer, student: ServedModel): Promise<string[]> {
  const studentIds = await probeIds(student);
  const teacherIds = await probeIds(teacher);
  const notes: string[] = [];
  if (typeof teacherIds === "string") {
    notes.push(
      `cannot check that the teacher tokenizes as the student (${teacherIds}): distillation assumes it does`,
    );
  } else if (Array.isArray(studentIds) && !sameIds(teacherIds, studentIds)) {
    throw new UserError(
      `the teacher at ${teacher.client.baseUrl} renders a probe conversation as other token ids than the student (${describeDifference(teacherIds, studentIds)}): ` +
        "distillation compares the two models' logprobs of the same tokens; use a teacher with the student's tokenizer and chat template",
    );
  }
  // a server without prompt_logprobs is refused here, before any sampling
  const ids = Array.isArray(studentIds) ? studentIds : Array.isArray(teacherIds) ? teacherIds : null;
  if (ids !== null) await teacher.score(ids);
  return notes;
}

/** The probe's prompt token ids as a server renders them, or why it gave none. */
async function probeIds(server: ServedModel): Promise<number[] | string> {
  const answer = await server.client.postJson("/chat/completions", {
    model: server.model,
    messages: PROBE,
    max_tokens: 1,
    return_token_ids: true,
  });
  if (answer.type === "refusal") return `its chat route answered ${answer.status}: ${answer.message}`;
  const ids = (answer.body as { prompt_token_ids?: unknown } | null)?.prompt_token_ids;
  if (!Array.isArray(ids) || !ids.every((id) => Number.isInteger(id))) {
    return "its chat answer has no prompt_token_ids (vLLM's return_token_ids)";
  }
  return ids as number[];
}

function sameIds(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((id, i) => id === b[i]);
}

/** "47 tokens against 52, first apart at position 3: 1201 against 72". */
function describeDifference(teacher: readonly number[], student: readonly number[]): string {
  let at = 0;
  while (at < teacher.length && at < student.length && teacher[at] === student[at]) at += 1;
  const apart =
    at < teacher.length && at < student.length
      ? `, first apart at position ${at}: ${teacher[at]} against ${student[at]}`
      : "";
  return `${teacher.length} tokens against ${student.length}${apart}`;
}

/**
 * A task an agent program works on: what it is asked, the files it starts from, what it may reach,
 * and how long it may take. A taskset yields these; a harness runs an agent on one in a runtime.
 * Every vf environment's rows are tasks too (`environmentTaskset`), asked of the plain chat harness.
 */
import { z } from "zod";
import { Messages } from "../messages/message.ts";

/** Hosts an agent may reach besides the interception server (which it always may). */
export const NetworkPolicy = z
  .object({
    /** Host names (or `host:port`) the agent may connect to; empty: none. */
    allow: z.array(z.string().min(1)).default([]),
    /** Hosts refused even when `allow` would let them through. */
    block: z.array(z.string().min(1)).default([]),
  })
  .strict();
export type NetworkPolicy = z.infer<typeof NetworkPolicy>;

/** What ends a runaway agent; each is checked by the interception server or the runtime. */
export const TaskLimits = z
  .object({
    /** Wall time of the whole run, in seconds. */
    timeSeconds: z.number().positive().default(600),
    /** Model calls at most. */
    maxTurns: z.number().int().positive().default(50),
    /** Completion tokens over all calls at most; none: no bound. */
    maxCompletionTokens: z.number().int().positive().optional(),
  })
  .strict();
export type TaskLimits = z.infer<typeof TaskLimits>;

/** One task; see the file comment. */
export const AgentTask = z
  .object({
    /** Stable across runs: names the task in traces, results and groups. */
    id: z.string().min(1),
    /** The row's example id; a task's rollouts share it. */
    exampleId: z.number().int().min(0),
    /** The conversation the agent starts from: the user's request (and a system message, if any). */
    prompt: Messages,
    /** The reference answer, for scoring; empty when the score reads files or runs tests instead. */
    answer: z.string().default(""),
    /** Anything else the taskset needs to score (hidden tests' names, expected files, ...). */
    info: z.record(z.string(), z.unknown()).default({}),
    /** Files of the agent's working folder before it starts, by path relative to it. */
    files: z.record(z.string(), z.string()).default({}),
    network: NetworkPolicy.default({ allow: [], block: [] }),
    limits: TaskLimits.default({ timeSeconds: 600, maxTurns: 50 }),
  })
  .strict();
export type AgentTask = z.infer<typeof AgentTask>;

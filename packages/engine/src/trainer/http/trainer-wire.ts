/**
 * The trainer protocol over HTTP: one POST route per primitive, whose request and response bodies
 * are the protocol's own zod schemas (protocol.ts), so client and server validate the very same
 * shapes the in-process trainer takes. Errors come back as `{ "error": { "type", "message" } }`
 * with 400 (the request was wrong: a bad batch, a missing checkpoint) or 500 (the trainer failed).
 *
 * Paths such as `dir` are paths on the trainer's machine: trainer and inference server must share
 * the folder the weights are written to (as prime-rl's filesystem weight broadcast does).
 */
import { z } from "zod";
import { ModelConfig } from "../../config.ts";
import {
  AdamParams,
  Batch,
  ForwardBackwardResult,
  Loss,
  OptimStepResult,
  SampleRequest,
  SampleResult,
  SaveWeightsResult,
} from "../protocol.ts";

/** Body of /forward_backward and /forward. */
export const ForwardBackwardRequest = z.object({ batch: Batch, loss: Loss }).strict();
export type ForwardBackwardRequest = z.infer<typeof ForwardBackwardRequest>;

/** Body of the routes that take a folder on the trainer's machine. */
export const DirRequest = z.object({ dir: z.string().min(1) }).strict();
export type DirRequest = z.infer<typeof DirRequest>;

/** The answer of routes with nothing to report. */
export const OkResponse = z.object({ ok: z.literal(true) });
export type OkResponse = z.infer<typeof OkResponse>;

/** GET /health: the trainer is up, and the model it trains. */
export const TrainerHealthResponse = z.object({ status: z.literal("ok"), config: ModelConfig.nullable() });
export type TrainerHealthResponse = z.infer<typeof TrainerHealthResponse>;

/** An error answer. */
export const TrainerErrorResponse = z.object({
  error: z.object({ type: z.string(), message: z.string() }),
});
export type TrainerErrorResponse = z.infer<typeof TrainerErrorResponse>;

/** Every POST route: its path, request body and response body. */
export const TRAINER_ROUTES = {
  forwardBackward: {
    path: "/forward_backward",
    request: ForwardBackwardRequest,
    response: ForwardBackwardResult,
  },
  forward: { path: "/forward", request: ForwardBackwardRequest, response: ForwardBackwardResult },
  optimStep: { path: "/optim_step", request: AdamParams, response: OptimStepResult },
  saveWeights: { path: "/save_weights", request: DirRequest, response: SaveWeightsResult },
  loadWeights: { path: "/load_weights", request: DirRequest, response: OkResponse },
  saveState: { path: "/save_state", request: DirRequest, response: SaveWeightsResult },
  loadState: { path: "/load_state", request: DirRequest, response: OkResponse },
  sample: { path: "/sample", request: SampleRequest, response: SampleResult },
} as const;

/** The name of a POST route. */
export type TrainerRoute = keyof typeof TRAINER_ROUTES;

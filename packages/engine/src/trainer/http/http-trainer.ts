/**
 * The trainer protocol's client over HTTP: a `Trainer` whose every call is a POST to a trainer
 * server (`vf trainer serve`, or `startTrainerServer`). Requests and answers are validated with the
 * protocol's schemas on both sides. A refused request (4xx) is a TrainerRefusedError carrying the
 * server's message; an unreachable or failing server is a TrainerUnavailableError.
 */
import type { z } from "zod";
import type { ModelConfig } from "../../config.ts";
import { TrainerRefusedError, TrainerUnavailableError } from "../../errors.ts";
import { issuePath } from "../../schema-issues.ts";
import type {
  AdamParamsInput,
  Batch,
  ForwardBackwardResult,
  LossInput,
  OptimStepResult,
  SampleRequestInput,
  SampleResult,
  SaveWeightsResult,
  Trainer,
} from "../protocol.ts";
import {
  TRAINER_ROUTES,
  TrainerErrorResponse,
  TrainerHealthResponse,
  type TrainerRoute,
} from "./trainer-wire.ts";

/** Where the trainer server is. */
export interface HttpTrainerOptions {
  /** Base URL of the server, e.g. http://10.0.0.2:8200. */
  url: string;
}

/**
 * A trainer on another process or machine.
 *
 * @example
 * const trainer = new HttpTrainer({ url: "http://127.0.0.1:8200" });
 * await trainer.forwardBackward(batch, { type: "importance_sampling" });
 */
export class HttpTrainer implements Trainer {
  readonly url: string;

  constructor(options: HttpTrainerOptions) {
    this.url = options.url.replace(/\/+$/, "");
  }

  /** GET /health: the server's model config; throws when the server cannot be reached. */
  async health(): Promise<{ config: ModelConfig | null }> {
    const response = await this.fetch("/health", { method: "GET" });
    const body = TrainerHealthResponse.safeParse(await response.json().catch(() => null));
    if (!response.ok || !body.success) {
      throw new TrainerUnavailableError(
        `${this.url}/health answered ${response.status} without a trainer's health report: check that the URL points to vf trainer serve`,
      );
    }
    return { config: body.data.config };
  }

  forwardBackward(batch: Batch, loss: LossInput): Promise<ForwardBackwardResult> {
    return this.call("forwardBackward", { batch, loss });
  }

  forward(batch: Batch, loss: LossInput): Promise<ForwardBackwardResult> {
    return this.call("forward", { batch, loss });
  }

  optimStep(params: AdamParamsInput): Promise<OptimStepResult> {
    return this.call("optimStep", params);
  }

  saveWeights(dir: string): Promise<SaveWeightsResult> {
    return this.call("saveWeights", { dir });
  }

  async loadWeights(dir: string): Promise<void> {
    await this.call("loadWeights", { dir });
  }

  saveState(dir: string): Promise<SaveWeightsResult> {
    return this.call("saveState", { dir });
  }

  async loadState(dir: string): Promise<void> {
    await this.call("loadState", { dir });
  }

  sample(request: SampleRequestInput): Promise<SampleResult> {
    return this.call("sample", request);
  }

  /** The server's trainer stays up for other clients; there is nothing to release here. */
  async close(): Promise<void> {}

  private async call<R extends TrainerRoute>(
    name: R,
    body: z.input<(typeof TRAINER_ROUTES)[R]["request"]>,
  ): Promise<z.output<(typeof TRAINER_ROUTES)[R]["response"]>> {
    const route = TRAINER_ROUTES[name];
    // validate here too, so a bad call fails with the same message whichever backend runs it
    const request = route.request.safeParse(body);
    if (!request.success) {
      const issue = request.error.issues[0]!;
      throw new TrainerRefusedError(
        `invalid ${name} request at ${issuePath(issue)}: ${issue.message}: fix this field`,
      );
    }
    const response = await this.fetch(route.path, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(request.data),
    });
    const json: unknown = await response.json().catch(() => null);
    if (!response.ok) {
      const error = TrainerErrorResponse.safeParse(json);
      const message = error.success ? error.data.error.message : `HTTP ${response.status}`;
      if (response.status >= 400 && response.status < 500) throw new TrainerRefusedError(message);
      throw new TrainerUnavailableError(
        `the trainer at ${this.url} failed on ${route.path}: ${message}: check its log`,
      );
    }
    const parsed = route.response.safeParse(json);
    if (!parsed.success) {
      throw new TrainerUnavailableError(
        `the trainer at ${this.url} answered ${route.path} with a body that is not a ${name} result: check that both sides run the same vf version`,
      );
    }
    return parsed.data as z.output<(typeof TRAINER_ROUTES)[R]["response"]>;
  }

  private async fetch(path: string, init: RequestInit): Promise<Response> {
    try {
      return await fetch(`${this.url}${path}`, init);
    } catch (error) {
      throw new TrainerUnavailableError(
        `cannot reach the trainer at ${this.url} (${(error as Error).message}): start it with vf trainer serve --port N, and check trainer.url`,
        { cause: error },
      );
    }
  }
}

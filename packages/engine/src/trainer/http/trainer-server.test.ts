// The trainer server's answers in process (hono's app.request): what a client sends wrong, and what
// goes wrong in the trainer, each with its status and the protocol's error shape.

import type { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalTrainer, type LocalTrainer } from "../local-trainer.ts";
import type { Trainer } from "../protocol.ts";
import { TINY_CONFIG } from "../trainer.contract.ts";
import { createTrainerApp } from "./trainer-server.ts";
import type { TrainerErrorResponse } from "./trainer-wire.ts";

let engine: LocalTrainer;
let app: Hono;
const lines: string[] = [];
beforeAll(async () => {
  engine = await createLocalTrainer({ config: TINY_CONFIG, seed: 7 });
  app = createTrainerApp(engine, {
    config: engine.config,
    maxBodyBytes: 4096,
    log: (line) => lines.push(line),
  });
});
afterAll(() => engine.close());

/** Status and body of an in-process request. */
async function call(path: string, init?: RequestInit): Promise<{ status: number; body: Answer }> {
  const response = await app.request(path, init);
  return { status: response.status, body: (await response.json()) as Answer };
}

/** A result, or the protocol's error answer. */
type Answer = Record<string, unknown> & Partial<TrainerErrorResponse>;

const post = (body: unknown): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json" },
  body: typeof body === "string" ? body : JSON.stringify(body),
});

describe("the trainer server's answers", () => {
  it("reports its model on GET /health", async () => {
    expect(await call("/health")).toEqual({ status: 200, body: { status: "ok", config: engine.config } });
  });

  it("answers a protocol call with the trainer's result", async () => {
    const { status, body } = await call("/optim_step", post({ learningRate: 0 }));
    expect(status).toBe(200);
    expect(body).toMatchObject({ step: 1, learningRate: 0 });
  });

  it("refuses what is not the protocol: 404, 405, 400 naming the field, 400 for bad JSON, 413", async () => {
    const missing = await call("/train", post({}));
    expect(missing.status).toBe(404);
    expect(missing.body.error!.message).toMatch(
      /^no route POST \/train: this trainer answers POST \/forward_backward, /,
    );
    const method = await call("/optim_step");
    expect(method).toEqual({
      status: 405,
      body: { error: { type: "Error", message: "/optim_step takes POST, not GET" } },
    });
    const field = await call("/optim_step", post({ learningRate: -1 }));
    expect(field.status).toBe(400);
    expect(field.body.error!.message).toMatch(
      /^invalid \/optim_step body at learningRate: .*: send the trainer protocol's optimStep request$/,
    );
    const notJson = await call("/save_weights", post("{dir"));
    expect(notJson.status).toBe(400);
    expect(notJson.body.error!.message).toMatch(/^the request body is not valid JSON/);
    const big = await call("/save_weights", post({ dir: "x".repeat(5000) }));
    expect(big.status).toBe(413);
    expect(big.body.error!.message).toBe(
      "the request body is larger than this server's limit of 4096 bytes: send smaller micro-batches",
    );
    expect(lines).toEqual([]);
  });

  it("answers the trainer's refusal with 400 and its error's class, and a failure with 500, logged", async () => {
    const refused = await call("/load_state", post({ dir: "/nowhere/state" }));
    expect(refused.status).toBe(400);
    expect(refused.body.error!.type).toBe("CheckpointError");
    expect(refused.body.error!.message).toMatch(/cannot read/);
    // the engine, but its optimizer step fails as a fault of the trainer (not an EngineError) would
    const broken: Trainer = Object.create(engine, {
      optimStep: { value: () => Promise.reject(new Error("the GPU caught fire")) },
    });
    const failing = createTrainerApp(broken, { log: (line) => lines.push(line) });
    const response = await failing.request("/optim_step", post({ learningRate: 0 }));
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: { type: "Error", message: "the GPU caught fire" } });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^trainer \/optim_step: Error: the GPU caught fire/);
  });
});

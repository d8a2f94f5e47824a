import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONFIG_FILE, saveCheckpoint, WEIGHTS_FILE } from "../checkpoint/checkpoint.ts";
import { encodeSafetensors } from "../checkpoint/safetensors.ts";
import { tensorSpecs } from "../params.ts";
import { type EngineServer, startEngineServer } from "./engine-server.ts";
import { randomModel, TEST_CONFIG, type VllmChatRequest, vllmChat } from "./test-support.ts";

let server: EngineServer;
let client: OpenAI;
let dir: string;
const request: VllmChatRequest = {
  model: "tiny",
  messages: [{ role: "user", content: "hi" }],
  max_tokens: 60,
  seed: 4,
  ignore_eos: true,
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "vf-update-weights-"));
  await saveCheckpoint(join(dir, "first"), TEST_CONFIG, randomModel(1).params);
  await saveCheckpoint(join(dir, "second"), TEST_CONFIG, randomModel(2).params);
  server = await startEngineServer({ checkpoint: join(dir, "first"), modelName: "tiny" });
  client = new OpenAI({ baseURL: server.url, apiKey: "EMPTY", maxRetries: 0 });
});
afterAll(() => server.close());

async function text(): Promise<string> {
  return (await vllmChat(client, request)).choices[0]!.message.content!;
}

async function update(weightDir: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(server.url.replace(/\/v1$/, "/update_weights"), {
    method: "POST",
    body: JSON.stringify({ weight_dir: weightDir }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("POST /update_weights", () => {
  it("loads new weights, which change the answers, and loading the old ones brings them back", async () => {
    const before = await text();
    expect(await update(join(dir, "second"))).toEqual({
      status: 200,
      body: { status: "ok", weight_dir: join(dir, "second") },
    });
    const after = await text();
    expect(after).not.toBe(before);
    await update(join(dir, "first"));
    expect(await text()).toBe(before);
  });

  it("lets requests in flight finish on the old weights; later ones wait for the new", async () => {
    const long: VllmChatRequest = { ...request, max_tokens: 480 };
    const onFirst = (await vllmChat(client, long)).choices[0]!.message.content!;
    const order: string[] = [];
    const inFlight = vllmChat(client, long).then((r) => {
      order.push("in flight");
      return r.choices[0]!.message.content;
    });
    await new Promise((resolve) => setTimeout(resolve, 5)); // let it start
    const updated = update(join(dir, "second")).then((r) => {
      order.push("updated");
      return r.status;
    });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const later = vllmChat(client, long); // asked after the update: runs on the new weights
    expect(await inFlight).toBe(onFirst);
    expect(await updated).toBe(200);
    expect(order).toEqual(["in flight", "updated"]);
    expect((await later).choices[0]!.message.content).not.toBe(onFirst);
    await update(join(dir, "first"));
  });

  it("answers 400 naming the file for a missing checkpoint, and keeps serving the old weights", async () => {
    const before = await text();
    const missing = await update(join(dir, "nowhere"));
    expect(missing.status).toBe(400);
    expect((missing.body.error as { message: string }).message).toContain(join(dir, "nowhere", CONFIG_FILE));
    expect(await text()).toBe(before);
  });

  it("answers 400 naming the tensor for weights that do not match the config", async () => {
    const broken = join(dir, "broken");
    await saveCheckpoint(broken, TEST_CONFIG, randomModel(3).params);
    const [first, ...rest] = tensorSpecs(TEST_CONFIG);
    const params = randomModel(3).params;
    const tensors = rest.map((spec) => ({
      name: spec.name,
      shape: spec.shape,
      data: params.subarray(spec.offset, spec.offset + spec.size),
    }));
    await writeFile(join(broken, WEIGHTS_FILE), encodeSafetensors(tensors));
    const result = await update(broken);
    expect(result.status).toBe(400);
    expect((result.body.error as { message: string }).message).toContain(`tensor "${first!.name}"`);
  });

  it("answers 400 for a checkpoint of another architecture, and for a malformed body", async () => {
    const other = join(dir, "other");
    const config = { ...TEST_CONFIG, dFF: 32 };
    await saveCheckpoint(
      other,
      config,
      new Float32Array(tensorSpecs(config).reduce((n, s) => n + s.size, 0)),
    );
    const result = await update(other);
    expect(result.status).toBe(400);
    expect((result.body.error as { message: string }).message).toContain("same architecture");
    const bad = await fetch(server.url.replace(/\/v1$/, "/update_weights"), { method: "POST", body: "{}" });
    expect(bad.status).toBe(400);
    expect(await text()).toBeTypeOf("string"); // still serving
  });
});

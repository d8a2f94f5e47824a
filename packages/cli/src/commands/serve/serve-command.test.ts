// `vf serve` as a user runs it: a child process that prints its URL, answers OpenAI clients (vf's
// own OpenAIModelClient here, which reads vLLM's token fields) and stops cleanly on Ctrl-C.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { OpenAIModelClient } from "@vf-rl/core";
import { ModelNotFoundError, OverlongPromptError } from "@vf-rl/core/errors";
import {
  initParameters,
  parseModelConfig,
  renderChat,
  saveCheckpoint,
  Transformer,
  tokenizer,
} from "@vf-rl/engine";
import { runVf, VF_BIN } from "@vf-rl/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

let checkpoint: string;

beforeAll(async () => {
  const config = parseModelConfig({
    vocabSize: tokenizer.vocabSize,
    dModel: 32,
    nLayers: 1,
    nHeads: 2,
    dFF: 64,
    maxSeqLen: 128,
  });
  const model = new Transformer(config);
  initParameters(config, model.params, 1);
  checkpoint = join(await mkdtemp(join(tmpdir(), "vf-serve-")), "model");
  await saveCheckpoint(checkpoint, config, model.params);
});

/** Starts `vf serve` and resolves with its URL once it prints it. */
function serve(args: string[]): Promise<{ child: ChildProcess; url: string; stderr: () => string }> {
  const child = spawn(process.execPath, [VF_BIN, "serve", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  let stdout = "";
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      const url = /http:\/\/\S+\/v1\n/.exec(stdout)?.[0].trimEnd();
      if (url) resolve({ child, url, stderr: () => stderr });
    });
    child.on("exit", (code) => reject(new Error(`vf serve exited with ${code}: ${stderr}`)));
  });
}

describe("vf serve", () => {
  let running: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    running = await serve(["--model", checkpoint, "--port", "0", "--name", "tiny"]);
  });
  afterAll(() => running.child.kill("SIGKILL"));

  it("serves the model to vf's client, with the prompt and completion token ids and logprobs", async () => {
    const client = new OpenAIModelClient({ baseUrl: running.url, apiKey: "EMPTY" });
    const messages = [{ role: "user" as const, content: "hi" }];
    const response = await client.chat({
      model: "tiny",
      messages,
      sampling: { max_tokens: 8, seed: 1, logprobs: true, extra_body: { return_token_ids: true } },
    });
    await client.close();
    expect(response.tokens!.promptIds).toEqual(renderChat(messages, { addGenerationPrompt: true }));
    expect(response.tokens!.completionLogprobs).toHaveLength(response.tokens!.completionIds.length);
    expect(response.usage.completionTokens).toBe(response.tokens!.completionIds.length);
    expect(running.stderr()).toContain(`serving "tiny" from ${checkpoint}`);
  });

  it("fails a prompt over the context and an unknown model with vf's typed errors", async () => {
    const client = new OpenAIModelClient({ baseUrl: running.url, apiKey: "EMPTY", maxRetries: 0 });
    const long = [{ role: "user" as const, content: "x".repeat(200) }];
    await expect(client.chat({ model: "tiny", messages: long, sampling: {} })).rejects.toBeInstanceOf(
      OverlongPromptError,
    );
    await expect(
      client.chat({ model: "gpt-5", messages: [{ role: "user", content: "hi" }], sampling: {} }),
    ).rejects.toBeInstanceOf(ModelNotFoundError);
    await client.close();
  });

  it("stops cleanly on Ctrl-C", async () => {
    const exited = new Promise<number | null>((resolve) => running.child.on("exit", resolve));
    running.child.kill("SIGINT");
    expect(await exited).toBe(0);
    expect(running.stderr()).toContain("stopped");
  });
});

describe("vf serve's bad input", () => {
  it("names a missing checkpoint in one line", async () => {
    const result = await runVf(["serve", "--model", "/nowhere/model", "--port", "0"]);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split("\n")).toEqual([
      "error: --model /nowhere/model does not exist: pass a checkpoint folder (config.json and model.safetensors) that vf train or vf sft wrote",
    ]);
  });

  it("says when the port is taken", async () => {
    const first = await serve(["--model", checkpoint, "--port", "0"]);
    const port = new URL(first.url).port;
    const result = await runVf(["serve", "--model", checkpoint, "--port", port]);
    first.child.kill("SIGKILL");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`port ${port} is already in use`);
  });
});

// What a distillation run checks of its teacher before sampling anything. Teachers that differ from
// the engine's server (another tokenizer, a server without prompt_logprobs, one that returns no
// token ids) are the engine's server behind a loopback proxy that rewrites its answers.
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { UserError } from "@vf-rl/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeTinyModel } from "../testing/index.ts";
import { type InferenceEndpoint, startLocalInference } from "./inference-endpoint.ts";
import { openTeacher } from "./teacher-endpoint.ts";

let dir: string;
let teacherDir: string;
let studentServer: InferenceEndpoint;
let engine: InferenceEndpoint;
const proxies: Server[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "vf-teacher-"));
  studentServer = await startLocalInference(await writeTinyModel(join(dir, "student"), { seed: 1 }));
  teacherDir = await writeTinyModel(join(dir, "teacher"), { seed: 2 });
  engine = await startLocalInference(teacherDir);
});
afterAll(async () => {
  for (const proxy of proxies) proxy.close();
  await studentServer.close();
  await engine.close();
  await rm(dir, { recursive: true, force: true });
});

/**
 * The engine's teacher server behind a proxy that passes each JSON answer of `path` through
 * `rewrite`, which changes it in place or returns an answer to send instead.
 */
async function proxied(
  rewrite: (path: string, body: Record<string, unknown>) => { status: number; body: unknown } | undefined,
): Promise<string> {
  const proxy = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const path = request.url!.replace(/^\/v1/, "");
    const answer = await fetch(`${engine.baseUrl}${path}`, {
      method: request.method!,
      headers: { "content-type": "application/json" },
      ...(request.method === "POST" ? { body: Buffer.concat(chunks) } : {}),
    });
    const body = (await answer.json()) as Record<string, unknown>;
    const instead = answer.ok ? rewrite(path, body) : undefined;
    response.writeHead(instead?.status ?? answer.status, { "content-type": "application/json" });
    response.end(JSON.stringify(instead?.body ?? body));
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  proxies.push(proxy);
  return `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/v1`;
}

describe("a distillation run's teacher", () => {
  it("is served from a checkpoint on loopback and scores the student's token ids", async () => {
    const teacher = await openTeacher({ model: teacherDir }, studentServer);
    try {
      expect(teacher.notes).toEqual([]);
      expect(teacher.description).toMatch(/^teacher .*teacher at http:\/\/127\.0\.0\.1:\d+\/v1$/);
      const scores = await teacher.scorer.score([1, 104, 105, 33]);
      expect(scores).toHaveLength(4);
      expect(scores[0]).toBe(0);
      expect(scores.slice(1).every((s) => s < 0)).toBe(true);
    } finally {
      await teacher.close();
    }
  });

  it("is refused when it renders a conversation as other token ids than the student", async () => {
    const url = await proxied((path, body) => {
      if (path === "/chat/completions") body.prompt_token_ids = (body.prompt_token_ids as number[]).slice(1);
    });
    const error = await openTeacher({ url }, studentServer).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toMatch(
      /^the teacher at http:\/\/127\.0\.0\.1:\d+\/v1 renders a probe conversation as other token ids than the student \(\d+ tokens against \d+, first apart at position 0: .*use a teacher with the student's tokenizer and chat template$/,
    );
  });

  it("is refused when its server does not answer prompt_logprobs", async () => {
    const url = await proxied((path, body) => {
      if (path === "/completions")
        for (const choice of body.choices as Record<string, unknown>[]) delete choice.prompt_logprobs;
    });
    const error = await openTeacher({ url }, studentServer).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toMatch(
      /returned no prompt_logprobs .*serve the teacher with vLLM or vf serve/,
    );
  });

  it("is refused with its server's status and message when the server refuses a token-id prompt", async () => {
    const url = await proxied((path) =>
      path === "/completions"
        ? { status: 400, body: { error: { message: "prompt must be a string" } } }
        : undefined,
    );
    const error = await openTeacher({ url }, studentServer).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toMatch(
      /^the teacher at http:\/\/127\.0\.0\.1:\d+\/v1 refused to score a sequence of \d+ tokens \(400: prompt must be a string\): the teacher needs the student's token ids/,
    );
  });

  it("is taken on trust, with a note, when its chat answers carry no token ids", async () => {
    const url = await proxied((path, body) => {
      if (path === "/chat/completions") delete body.prompt_token_ids;
    });
    const teacher = await openTeacher({ url }, studentServer);
    expect(teacher.description).toBe(`teacher ${engine.model} at ${url}`);
    expect(teacher.notes).toEqual([
      "cannot check that the teacher tokenizes as the student (its chat answer has no prompt_token_ids (vLLM's return_token_ids)): distillation assumes it does",
    ]);
    await teacher.close();
  });
});

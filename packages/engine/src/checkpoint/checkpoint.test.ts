import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseModelConfig } from "../config.ts";
import { CheckpointError, TensorMismatchError } from "../errors.ts";
import { initParameters, parameterCount } from "../params.ts";
import { CONFIG_FILE, loadCheckpoint, saveCheckpoint, WEIGHTS_FILE } from "./checkpoint.ts";
import { decodeSafetensors, encodeSafetensors } from "./safetensors.ts";

const config = parseModelConfig({
  vocabSize: 263,
  dModel: 16,
  nLayers: 2,
  nHeads: 2,
  dFF: 32,
  maxSeqLen: 32,
});

async function savedCheckpoint(): Promise<{ dir: string; params: Float32Array }> {
  const dir = await mkdtemp(join(tmpdir(), "vf-engine-ckpt-"));
  const params = new Float32Array(parameterCount(config));
  initParameters(config, params, 7);
  await saveCheckpoint(dir, config, params);
  return { dir, params };
}

describe("safetensors", () => {
  it("writes the documented layout: header length, JSON header, 8-byte aligned little-endian data", () => {
    const bytes = encodeSafetensors([{ name: "w", shape: [2], data: Float32Array.of(1.5, -2) }], { a: "b" });
    const headerLength = Number(new DataView(bytes.buffer).getBigUint64(0, true));
    const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + headerLength)));
    expect(header).toEqual({
      __metadata__: { a: "b" },
      w: { dtype: "F32", shape: [2], data_offsets: [0, 8] },
    });
    expect((8 + headerLength) % 8).toBe(0);
    expect(Array.from(new Float32Array(bytes.slice(8 + headerLength).buffer))).toEqual([1.5, -2]);
  });

  it("reads back what it wrote", () => {
    const bytes = encodeSafetensors([{ name: "x", shape: [1, 3], data: Float32Array.of(1, 2, 3) }]);
    const { tensors } = decodeSafetensors(bytes, "x.safetensors");
    expect(tensors.get("x")).toEqual({ dtype: "F32", shape: [1, 3], data: Float32Array.of(1, 2, 3) });
  });

  it("reports a dtype it does not read (BF16) by name, without decoding it", () => {
    const header = new TextEncoder().encode(
      JSON.stringify({ h: { dtype: "BF16", shape: [2], data_offsets: [0, 4] } }),
    );
    const bytes = new Uint8Array(8 + header.length + 4);
    new DataView(bytes.buffer).setBigUint64(0, BigInt(header.length), true);
    bytes.set(header, 8);
    expect(decodeSafetensors(bytes, "h.safetensors").tensors.get("h")).toEqual({
      dtype: "BF16",
      shape: [2],
      data: null,
    });
  });

  it("rejects a truncated file with a CheckpointError naming it", () => {
    const bytes = encodeSafetensors([{ name: "x", shape: [4], data: new Float32Array(4) }]);
    expect(() => decodeSafetensors(bytes.subarray(0, bytes.length - 4), "cut.safetensors")).toThrow(
      /cut.safetensors is not a valid safetensors file: tensor "x" has data_offsets/,
    );
  });
});

describe("checkpoints", () => {
  it("load back bit-identical weights and the same config", async () => {
    const { dir, params } = await savedCheckpoint();
    const loaded = await loadCheckpoint(dir);
    expect(loaded.config).toEqual(config);
    expect(loaded.params).toEqual(params);
  });

  it("name the tensor whose shape disagrees with config.json, and say what to do", async () => {
    const { dir } = await savedCheckpoint();
    await writeFile(join(dir, CONFIG_FILE), JSON.stringify({ ...config, dFF: 48 }));
    const error = await loadCheckpoint(dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TensorMismatchError);
    expect(error).toMatchObject({
      tensor: "layers.0.mlp.w1.weight",
      expected: "F32 [48, 16]",
      actual: "F32 [32, 16]",
    });
    expect((error as Error).message).toMatch(/load them with the config.json saved beside them/);
  });

  it("reject tensors the config does not have", async () => {
    const { dir } = await savedCheckpoint();
    await writeFile(join(dir, CONFIG_FILE), JSON.stringify({ ...config, nLayers: 1 }));
    await expect(loadCheckpoint(dir)).rejects.toMatchObject({
      tensor: "layers.1.attn_norm.weight",
      expected: "no tensor of this name",
    });
  });

  it("report a missing directory as a CheckpointError with a hint", async () => {
    const error = await loadCheckpoint("/nonexistent/ckpt").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckpointError);
    expect((error as Error).message).toMatch(
      /cannot read .*config.json \(ENOENT\): pass a directory written by saveWeights/,
    );
  });

  it("report a config.json that fails validation", async () => {
    const { dir } = await savedCheckpoint();
    await writeFile(join(dir, CONFIG_FILE), JSON.stringify({ ...config, nHeads: 3 }));
    await expect(loadCheckpoint(dir)).rejects.toThrow(/dModel \(16\) must be divisible by nHeads \(3\)/);
    expect((await readFile(join(dir, WEIGHTS_FILE))).length).toBeGreaterThan(0);
  });
});

/**
 * Parity with PyTorch (after llm.c's test_gpt2.c): the fixture written by
 * scripts/make-torch-fixture.py (one safetensors file) holds a tiny model's weights, its logits on a batch, the loss and
 * gradient of every tensor under two losses, and the weights after two AdamW steps. Each tensor is
 * reported OK or NOT OK with its largest difference. Needs no Python: it reads the committed files.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { decodeSafetensors } from "./checkpoint/safetensors.ts";
import { parseModelConfig } from "./config.ts";
import type { Floats } from "./floats.ts";
import { Transformer } from "./model.ts";
import { packSequences } from "./packed-batch.ts";
import { tensorSpecs } from "./params.ts";
import { LocalTrainer } from "./trainer/local-trainer.ts";
import type { BatchItem } from "./trainer/protocol.ts";

const file = new URL("../test-fixtures/torch-parity.safetensors", import.meta.url);
const { tensors, metadata } = decodeSafetensors(readFileSync(file), "torch-parity.safetensors");
const config = parseModelConfig(JSON.parse(metadata.config!));
const specs = tensorSpecs(config);
const crossEntropy = JSON.parse(metadata.cross_entropy!);
const maskedIs = JSON.parse(metadata.masked_importance_sampling!);
const adamw = JSON.parse(metadata.adamw!);

function expected(name: string): Float32Array {
  const tensor = tensors.get(name);
  if (tensor?.data == null) throw new Error(`the fixture has no F32 tensor ${name}: regenerate it`);
  return tensor.data;
}

/** Largest absolute difference, and whether it is within `tol` of the expected tensor's scale. */
function compare(actual: Floats, wanted: Float32Array, tol: number): { maxDiff: number; ok: boolean } {
  let maxDiff = 0;
  let scale = 0;
  for (let i = 0; i < wanted.length; i++) {
    maxDiff = Math.max(maxDiff, Math.abs(actual[i]! - wanted[i]!));
    scale = Math.max(scale, Math.abs(wanted[i]!));
  }
  return { maxDiff, ok: actual.length === wanted.length && maxDiff <= tol * Math.max(1, scale) };
}

/** Compares every tensor of `flat` with the fixture's `prefix.<name>`; prints a test_gpt2.c-style report. */
function report(title: string, flat: Floats, prefix: string, tol: number): boolean {
  const lines = specs.map((spec) => {
    const { maxDiff, ok } = compare(
      flat.subarray(spec.offset, spec.offset + spec.size),
      expected(`${prefix}.${spec.name}`),
      tol,
    );
    return {
      ok,
      line: `${ok ? "OK    " : "NOT OK"} ${spec.name.padEnd(28)} max diff ${maxDiff.toExponential(2)}`,
    };
  });
  console.log(`${title}\n${lines.map((l) => `  ${l.line}`).join("\n")}`);
  return lines.every((l) => l.ok);
}

/** The fixture's batch: rows of the (B, T) input tensors. */
function fixtureItems(): BatchItem[] {
  const [B, T] = tensors.get("input.tokens")!.shape as [number, number];
  const row = (name: string, b: number): number[] => Array.from(expected(name).subarray(b * T, (b + 1) * T));
  return Array.from({ length: B }, (_, b) => ({
    tokens: row("input.tokens", b),
    mask: row("input.mask", b) as (0 | 1)[],
    samplerLogprobs: row("input.sampler_logprobs", b),
    advantages: row("input.advantages", b),
  }));
}
const items = fixtureItems();

function freshTrainer(): LocalTrainer {
  const model = new Transformer(config);
  for (const spec of specs) model.params.set(expected(`param.${spec.name}`), spec.offset);
  return new LocalTrainer(model);
}

describe("parity with the PyTorch reference", () => {
  it("computes the same logits", () => {
    const trainer = freshTrainer();
    const inputs = items.map((item) => item.tokens.slice(0, -1));
    const N = inputs.reduce((n, s) => n + s.length, 0);
    const logits = trainer.model.forward(packSequences(inputs, [...Array(N).keys()]));
    const { maxDiff, ok } = compare(logits, expected("logits"), 1e-5);
    console.log(`${ok ? "OK    " : "NOT OK"} logits max diff ${maxDiff.toExponential(2)}`);
    expect(ok).toBe(true);
  });

  it("computes the same cross-entropy loss and gradients", async () => {
    const trainer = freshTrainer();
    const result = await trainer.forwardBackward(items, { type: "cross_entropy" });
    console.log(`loss ${result.loss} (PyTorch ${crossEntropy.loss})`);
    expect(result.loss).toBeCloseTo(crossEntropy.loss, 5);
    expect(report("cross-entropy gradients", trainer.model.grads, "ce.grad", 1e-5)).toBe(true);
  });

  it("computes the same masked importance-sampling loss and gradients", async () => {
    const trainer = freshTrainer();
    const { maskLow, maskHigh, temperature } = maskedIs;
    const result = await trainer.forwardBackward(items, {
      type: "masked_importance_sampling",
      maskLow,
      maskHigh,
      temperature,
    });
    console.log(`loss ${result.loss} (PyTorch ${maskedIs.loss}), masked share ${result.maskedShare}`);
    expect(result.loss).toBeCloseTo(maskedIs.loss, 5);
    expect(result.maskedShare).toBeGreaterThan(0);
    expect(report("masked importance-sampling gradients", trainer.model.grads, "is.grad", 1e-5)).toBe(true);
  });

  it("takes the same AdamW steps, with weight decay and gradient clipping", async () => {
    const trainer = freshTrainer();
    const { steps, ...adam } = adamw;
    for (let step = 0; step < steps; step++) {
      await trainer.forwardBackward(items, { type: "cross_entropy" });
      await trainer.optimStep(adam);
    }
    expect(report(`weights after ${steps} AdamW steps`, trainer.model.params, "adamw.param", 1e-5)).toBe(
      true,
    );
  });
});

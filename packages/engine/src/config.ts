/**
 * The model config: the hyperparameters that fix the architecture and the shape of every tensor.
 * Saved as `config.json` beside the weights.
 */
import { z } from "zod";
import { ConfigError } from "./errors.ts";
import { issueLines } from "./schema-issues.ts";

/** The architecture: every key the shapes depend on; `config.json` holds exactly this. */
export const ModelConfig = z
  .object({
    /** Number of token ids (256 bytes + the tokenizer's special tokens for a chat model). */
    vocabSize: z.number().int().positive(),
    /** Width of the residual stream, C. */
    dModel: z.number().int().positive(),
    /** Number of transformer blocks, L. */
    nLayers: z.number().int().positive(),
    /** Attention heads, H; `dModel / nHeads` is the head size D and must be even (rotary pairs). */
    nHeads: z.number().int().positive(),
    /** Hidden width of the SwiGLU MLP, F. */
    dFF: z.number().int().positive(),
    /** Longest sequence the model attends over (positions 0 .. maxSeqLen-1). */
    maxSeqLen: z.number().int().positive(),
    /** Base of the rotary position frequencies (default 10000). */
    ropeTheta: z.number().positive().default(10_000),
    /** Epsilon inside RMSNorm's square root (default 1e-5). */
    normEps: z.number().positive().default(1e-5),
  })
  .strict()
  .superRefine((c, ctx) => {
    if (c.dModel % c.nHeads !== 0) {
      ctx.addIssue({
        code: "custom",
        path: ["nHeads"],
        message: `dModel (${c.dModel}) must be divisible by nHeads (${c.nHeads})`,
      });
    } else if ((c.dModel / c.nHeads) % 2 !== 0) {
      ctx.addIssue({
        code: "custom",
        path: ["nHeads"],
        message: `the head size dModel/nHeads (${c.dModel / c.nHeads}) must be even for rotary embeddings`,
      });
    }
  });
export type ModelConfig = z.infer<typeof ModelConfig>;
/** A config as written by hand: defaults may be left out. */
export type ModelConfigInput = z.input<typeof ModelConfig>;

/** Validates a config, filling defaults; throws `ConfigError` listing every bad key. */
export function parseModelConfig(input: unknown): ModelConfig {
  const result = safeParseModelConfig(input);
  if (!result.success) throw result.error;
  return result.data;
}

/** Like `parseModelConfig`, but returns the error instead of throwing it. */
export function safeParseModelConfig(
  input: unknown,
): { success: true; data: ModelConfig } | { success: false; error: ConfigError } {
  const result = ModelConfig.safeParse(input);
  if (result.success) return { success: true, data: result.data };
  return { success: false, error: new ConfigError(issueLines(result.error, "(config)")) };
}

/** The head size D = C / H. */
export function headSize(config: ModelConfig): number {
  return config.dModel / config.nHeads;
}

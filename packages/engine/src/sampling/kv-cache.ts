/**
 * The KV cache of one sequence for the plain cached forward (cached-forward.ts): the rotated keys
 * and the values of every position seen so far, per layer, so each new token attends over the past
 * without recomputing it. Each head's keys (and values) are contiguous rows, so attention reads them
 * as one (positions, D) matrix.
 */
import type { ModelConfig } from "../config.ts";
import { allocFloats, type DType, type Floats } from "../floats.ts";
import type { SequenceCache } from "./step-forward.ts";

/** Keys and values of one sequence for every layer, with room for `capacity` positions. */
export class KvCache implements SequenceCache {
  /** Positions filled so far. */
  length = 0;
  readonly keys: Floats[]; // L × (H, capacity, D), rotated
  readonly values: Floats[]; // L × (H, capacity, D)

  /** Room for `capacity` positions (at most the model's maxSeqLen). */
  constructor(
    config: ModelConfig,
    dtype: DType,
    readonly capacity: number,
  ) {
    const C = config.dModel;
    this.keys = Array.from({ length: config.nLayers }, () => allocFloats(dtype, capacity * C));
    this.values = Array.from({ length: config.nLayers }, () => allocFloats(dtype, capacity * C));
  }
}

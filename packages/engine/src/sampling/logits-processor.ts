/**
 * From one row of logits to one token and its log-probability, in vLLM's order: repetition
 * penalty, temperature, min_p, top_k, top_p, then a draw from what is left.
 *
 * The returned logprob is, by default ("processed"), that of the distribution the token was drawn
 * from: after the penalty, the temperature and the truncation, renormalised. That is what an
 * importance-sampling loss needs, and what RL trainers ask vLLM for (prime-rl starts vLLM with
 * `logprobs_mode=processed_logprobs`); vLLM's own server default is the raw softmax ("raw" here).
 * At temperature 0 the token is the argmax and its processed logprob is that of the penalised
 * logits at temperature 1, as in vLLM. With temperature 1 and nothing else, both equal the
 * trainer's log-softmax bit for bit, so on-policy samples show a mismatch KL of exactly 0.
 */
import type { Floats } from "../floats.ts";
import { drawFunction, sumExpFunction } from "../kernels/logits-wasm.ts";
import { WasmHeap } from "../kernels/wasm-heap.ts";
import type { Rng } from "../rng.ts";
import type { SamplingParams } from "../trainer/protocol.ts";

/** A token and its log-probability. */
export interface TokenLogprob {
  token: number;
  logprob: number;
}

/** The picked token and its log-probability, and the most likely alternatives when asked. */
export interface Pick extends TokenLogprob {
  /** The `topLogprobs` most likely tokens, most likely first, from the same distribution as `logprob`. */
  top: TokenLogprob[];
}

/** A given token scored (see `LogitsProcessor.score`). */
export interface Scored extends Pick {
  /** 1 + how many tokens are more likely than it. */
  rank: number;
}

/** The WebAssembly memory of a thread's processors: their z, and the two kernels over it. */
interface SharedMemory {
  z: Float64Array;
  sumExp: (z: number, n: number, max: number) => number;
  drawIndex: (z: number, n: number, lse: number, u: number) => number;
}
let shared: SharedMemory | null = null;

/**
 * The thread's memory for processors of up to V tokens. Processors share it: `pick` fills z and
 * reads it back before it returns, so no two of them ever use it at once.
 */
function sharedMemory(V: number): SharedMemory {
  if (shared === null || shared.z.length < V) {
    const heap = new WasmHeap({ floats: 2 * V, kernels: [sumExpFunction, drawFunction] });
    shared = {
      z: new Float64Array(heap.floats.buffer, 0, V),
      sumExp: heap.kernel("sumExp"),
      drawIndex: heap.kernel("draw"),
    };
  }
  return shared;
}

/** Picks tokens from logit rows; holds scratch buffers for a vocabulary of V. */
export class LogitsProcessor {
  private readonly z: Float64Array; // (V) processed logits, in the thread's shared WebAssembly memory
  private readonly keep: Uint8Array; // (V) 1 for tokens that survive truncation
  private allKept = true; // whether keep is all ones: then the exponentials run in WebAssembly
  private readonly order: number[]; // token ids, sorted by probability when truncating
  // with every token kept, logSumExp's sum and the draw (logits-wasm.ts, the same arithmetic)
  private readonly sumExp: (z: number, n: number, max: number) => number;
  private readonly drawIndex: (z: number, n: number, lse: number, u: number) => number;

  constructor(private readonly V: number) {
    const shared = sharedMemory(V);
    this.z = shared.z.subarray(0, V);
    this.sumExp = shared.sumExp;
    this.drawIndex = shared.drawIndex;
    this.keep = new Uint8Array(V);
    this.order = Array.from({ length: V }, (_, i) => i);
  }

  /**
   * Picks a token from logits[off .. off+V). `seen` (V) marks tokens of the prompt and output for
   * the repetition penalty; `rng` is the sequence's own generator; `topLogprobs` (default 0) asks for
   * that many of the most likely tokens beside the pick (OpenAI's `top_logprobs`).
   */
  pick(
    logits: Floats,
    off: number,
    params: SamplingParams,
    seen: Uint8Array,
    rng: Rng,
    topLogprobs = 0,
  ): Pick {
    const { V, z, keep } = this;
    const penalty = params.repetitionPenalty;
    for (let i = 0; i < V; i++) {
      let x = logits[off + i]!;
      if (penalty !== 1 && seen[i]) x = x > 0 ? x / penalty : x * penalty;
      z[i] = x;
    }

    let token: number;
    let logprob: number;
    let lse: number;
    if (params.temperature === 0) {
      token = 0;
      for (let i = 1; i < V; i++) if (z[i]! > z[token]!) token = i;
      keep.fill(1);
      this.allKept = true;
      lse = this.logSumExp();
      logprob = z[token]! - lse;
    } else {
      if (params.temperature !== 1) for (let i = 0; i < V; i++) z[i] = z[i]! / params.temperature;
      keep.fill(1);
      this.allKept = !this.truncate(params);
      lse = this.logSumExp();
      // draw: walk the kept tokens in id order until the cumulative probability passes u
      const u = rng.nextFloat();
      if (this.allKept) {
        token = this.drawIndex(z.byteOffset, V, lse, u);
      } else {
        let cumulative = 0;
        token = -1;
        for (let i = 0; i < V; i++) {
          if (!keep[i]) continue;
          cumulative += Math.exp(z[i]! - lse);
          token = i;
          if (cumulative > u) break;
        }
      }
      logprob = z[token]! - lse;
    }
    if (params.logprobsMode === "raw") {
      // the raw softmax of the unprocessed logits, for the pick and the alternatives alike
      let max = Number.NEGATIVE_INFINITY;
      for (let i = 0; i < V; i++) max = Math.max(max, logits[off + i]!);
      let sum = 0;
      for (let i = 0; i < V; i++) sum += Math.exp(logits[off + i]! - max);
      lse = max + Math.log(sum);
      for (let i = 0; i < V; i++) z[i] = logits[off + i]!;
      keep.fill(1);
      this.allKept = true;
      logprob = z[token]! - lse;
    }
    return { token, logprob, top: topLogprobs > 0 ? this.top(topLogprobs, lse) : [] };
  }

  /**
   * Scores a token that was given, not drawn (a prompt's next token): its logprob under the raw
   * softmax of logits[off .. off+V) (temperature 1, no penalty, no truncation, as vLLM's
   * prompt_logprobs), its rank (1 for the most likely) and the `topLogprobs` most likely tokens.
   * The arithmetic is `pick`'s, so a token sampled at temperature 1 with nothing else scores the
   * logprob its sampler reported, bit for bit.
   */
  score(logits: Floats, off: number, token: number, topLogprobs = 0): Scored {
    const { V, z, keep } = this;
    for (let i = 0; i < V; i++) z[i] = logits[off + i]!;
    keep.fill(1);
    this.allKept = true;
    const lse = this.logSumExp();
    let above = 0;
    for (let i = 0; i < V; i++) if (z[i]! > z[token]!) above += 1;
    return {
      token,
      logprob: z[token]! - lse,
      rank: above + 1,
      top: topLogprobs > 0 ? this.top(topLogprobs, lse) : [],
    };
  }

  /** The k kept tokens of highest z (ties: lower id first), with logprob z − lse. */
  private top(k: number, lse: number): TokenLogprob[] {
    const { V, z, keep } = this;
    const best: number[] = []; // most likely first
    for (let i = 0; i < V; i++) {
      if (!keep[i]) continue;
      if (best.length === k && z[i]! <= z[best[k - 1]!]!) continue;
      if (best.length < k) best.push(i);
      let at = best.length - 1;
      while (at > 0 && z[best[at - 1]!]! < z[i]!) {
        best[at] = best[at - 1]!;
        at -= 1;
      }
      best[at] = i;
    }
    return best.map((token) => ({ token, logprob: z[token]! - lse }));
  }

  /**
   * min_p, then top_k, then top_p: clears `keep` for dropped tokens (the most likely always stays).
   * Returns whether any of them applies.
   */
  private truncate(params: SamplingParams): boolean {
    const { V, z, keep, order } = this;
    const topK = params.topK > 0 && params.topK < V ? params.topK : V;
    if (params.minP === 0 && topK === V && params.topP === 1) return false;
    let max = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < V; i++) max = Math.max(max, z[i]!);
    if (params.minP > 0) {
      const threshold = Math.log(params.minP) + max; // p_i < minP · p_max  ⇔  z_i < log(minP) + z_max
      for (let i = 0; i < V; i++) if (z[i]! < threshold) keep[i] = 0;
    }
    if (topK === V && params.topP === 1) return true;
    order.sort((a, b) => z[b]! - z[a]! || a - b);
    if (topK < V) {
      let kept = 0;
      for (const i of order) {
        if (!keep[i]) continue;
        if (kept >= topK) keep[i] = 0;
        else kept += 1;
      }
    }
    if (params.topP < 1) {
      // over what min_p and top_k left, renormalised: keep tokens while the mass before them < top_p
      let total = 0;
      for (const i of order) if (keep[i]) total += Math.exp(z[i]! - max);
      let before = 0;
      for (const i of order) {
        if (!keep[i]) continue;
        if (before > 0 && before / total >= params.topP) keep[i] = 0;
        else before += Math.exp(z[i]! - max);
      }
    }
    return true;
  }

  /** log Σ exp(z) over kept tokens, computed as the loss computes it (max, then sum in id order). */
  private logSumExp(): number {
    const { V, z, keep } = this;
    let max = Number.NEGATIVE_INFINITY;
    if (this.allKept) {
      for (let i = 0; i < V; i++) max = Math.max(max, z[i]!);
      return max + Math.log(this.sumExp(z.byteOffset, V, max));
    }
    for (let i = 0; i < V; i++) if (keep[i]) max = Math.max(max, z[i]!);
    let sum = 0;
    for (let i = 0; i < V; i++) if (keep[i]) sum += Math.exp(z[i]! - max);
    return max + Math.log(sum);
  }
}

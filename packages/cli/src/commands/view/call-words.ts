/** How the viewer words a trace's model calls: one call's facts, a list of call numbers, a count. */
import type { SavedCall } from "@vf-rl/core/results";

/** Tokens, finish reason and time of one call, e.g. "1480 → 104 tokens · tool_calls · 12 ms". */
export function callFacts(call: SavedCall): string {
  const tokens = call.usage ? `${call.usage.promptTokens} → ${call.usage.completionTokens} tokens` : "";
  const ms = call.end - call.start;
  const time = ms < 1000 ? `${Math.max(0, ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
  return [tokens, call.error ? "failed" : (call.finishReason ?? ""), time].filter(Boolean).join(" · ");
}

/** 1-based call numbers as ranges: [0, 1, 2, 4] -> "1–3, 5". */
export function callRanges(indices: number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < indices.length; ) {
    let j = i;
    while (j + 1 < indices.length && indices[j + 1] === indices[j]! + 1) j++;
    parts.push(j === i ? `${indices[i]! + 1}` : `${indices[i]! + 1}–${indices[j]! + 1}`);
    i = j + 1;
  }
  return parts.join(", ");
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/**
 * A stage of work that notes how many callers are in it at once, for tests of concurrency bounds
 * (a model server's reply, a reward function). Without `wanted`, each pass takes 20 ms; with it,
 * each waits until `wanted` callers were in together, then all go on, so a test that a bound lets
 * that many overlap needs no timing.
 */

/** What `concurrencyProbe` returns. */
export interface ConcurrencyProbe {
  /** One caller going through the stage. */
  pass(): Promise<void>;
  /** The most callers that were in the stage at once. */
  readonly peak: number;
}

/** A stage of work that counts its callers at once; gated at `wanted` when given, else 20 ms a pass. */
export function concurrencyProbe(wanted?: number): ConcurrencyProbe {
  let now = 0;
  let peak = 0;
  const waiting: Array<() => void> = [];
  return {
    async pass() {
      now++;
      peak = Math.max(peak, now);
      if (wanted === undefined) await new Promise((resolve) => setTimeout(resolve, 20));
      else if (peak >= wanted) for (const wake of waiting.splice(0)) wake();
      else await new Promise<void>((resolve) => waiting.push(resolve));
      now--;
    },
    get peak() {
      return peak;
    },
  };
}

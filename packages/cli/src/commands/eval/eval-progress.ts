/**
 * How far one evaluation of `vf eval` has got: rollouts done of the total, their rate, the running
 * mean reward and the errors. The progress board (progress-board.ts) shows one of these per
 * evaluation; this file only counts.
 */
import type { RolloutRecord } from "@vf-rl/core/results";

export type EvalPhase = "queued" | "running" | "done" | "failed" | "interrupted";

export class EvalProgress {
  phase: EvalPhase = "queued";
  total = 0;
  done = 0;
  private scored = 0;
  private rewardSum = 0;
  private errors = 0;
  private started = 0;
  private ended = 0;

  /** `label` names the evaluation on screen: its environment, and a sweep's values. */
  constructor(public label: string) {}

  /** The evaluation starts: `alreadyDone` rollouts are kept from a resumed run. */
  start(total: number, alreadyDone: number): void {
    this.phase = "running";
    this.total = total;
    this.done = alreadyDone;
    this.started = performance.now();
  }

  add(records: readonly RolloutRecord[]): void {
    for (const record of records) {
      this.done++;
      this.scored++;
      this.rewardSum += record.reward;
      if (record.error) this.errors++;
    }
  }

  end(phase: "done" | "failed" | "interrupted"): void {
    this.phase = phase;
    this.ended = performance.now();
  }

  /** Rollouts per second since the start (rollouts of this run only, not kept ones). */
  rate(): number {
    const seconds = ((this.ended || performance.now()) - this.started) / 1000;
    return seconds > 0 ? this.scored / seconds : 0;
  }

  /** e.g. "12/40 rollouts · 3.1/s · reward 0.533 · errors 0". */
  line(): string {
    const mean = this.scored > 0 ? this.rewardSum / this.scored : 0;
    return `${this.done}/${this.total} rollouts · ${this.rate().toFixed(1)}/s · reward ${mean.toFixed(3)} · errors ${this.errors}`;
  }
}

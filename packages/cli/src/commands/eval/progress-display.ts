/**
 * Progress of a running evaluation on stderr: on a terminal, one line redrawn in place (a bar,
 * done/total, rollouts per second, the running mean reward and the error count); otherwise plain
 * lines at every tenth of the way, so logs stay readable.
 */
import type { RolloutRecord } from "@vf-rl/core/results";
import type { Output } from "../../terminal/output.ts";

export class ProgressDisplay {
  private done = 0;
  private rewardSum = 0;
  private scored = 0;
  private errors = 0;
  private lastDecile = -1;
  private readonly started = performance.now();
  private lastDraw = 0;

  constructor(
    private readonly output: Output,
    private readonly total: number,
    private readonly label: string,
  ) {}

  /** Counts rollouts kept from a resumed run. */
  resumeFrom(done: number): void {
    this.done = done;
  }

  add(records: RolloutRecord[]): void {
    for (const record of records) {
      this.done++;
      this.scored++;
      this.rewardSum += record.reward;
      if (record.error) this.errors++;
    }
    this.draw(false);
  }

  /** Draws the final state and ends the line. */
  finish(): void {
    this.draw(true);
    if (this.output.isTTY) this.output.status(null);
  }

  line(): string {
    const seconds = (performance.now() - this.started) / 1000;
    const rate = seconds > 0 ? this.scored / seconds : 0;
    const mean = this.scored > 0 ? this.rewardSum / this.scored : 0;
    return `${this.done}/${this.total} rollouts · ${rate.toFixed(1)}/s · reward ${mean.toFixed(3)} · errors ${this.errors}`;
  }

  private draw(final: boolean): void {
    if (this.output.isTTY) {
      const now = performance.now();
      if (!final && now - this.lastDraw < 50) return;
      this.lastDraw = now;
      const width = Math.max(10, Math.min(30, this.output.columns - 70));
      const filled = this.total === 0 ? width : Math.round((this.done / this.total) * width);
      const bar = `${"█".repeat(filled)}${"░".repeat(width - filled)}`;
      this.output.status(`${this.label} ${bar} ${this.line()}`);
      return;
    }
    const decile = this.total === 0 ? 10 : Math.floor((this.done / this.total) * 10);
    if (decile > this.lastDecile || final) {
      if (final && decile === this.lastDecile) return;
      this.lastDecile = decile;
      this.output.err(`${this.label} ${this.line()}`);
    }
  }
}

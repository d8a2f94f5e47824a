/**
 * The progress of `vf eval`'s evaluations on stderr, one entry per evaluation, in one of three ways:
 * - "live" (a terminal): a block redrawn in place, one line per evaluation side by side (a bar,
 *   done/total, rate, mean reward, errors), with queued and finished ones marked;
 * - "lines" (-d/--disable-tui): one plain line per update, for logs;
 * - "steps" (stderr not a terminal): plain lines at every tenth of each evaluation, so a piped
 *   log stays short.
 * Each entry is an EvalProgress: how far one evaluation has got (rollouts done of the total, their
 * rate, the running mean reward, the errors).
 *
 * And the same progress told to an uptime monitor (`--heartbeat-url URL`, a Heartbeat): a GET to its
 * URL each time rollouts finish, as verifiers does, so the monitor alerts when a run stops making
 * progress (not on a clock: a run that hangs must go quiet). No body; at most one ping in flight,
 * later progress skips while one waits; each gives up after 5 s. A failed ping never stops the run:
 * the first is reported when it happens, and all of them in one line at the end.
 */
import type { RolloutRecord } from "@vf-rl/core/results";
import type { Output } from "../../terminal/output.ts";

export type EvalPhase = "queued" | "running" | "done" | "failed" | "interrupted";

/** How far one evaluation has got: the board shows one of these per evaluation. */
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

export type ProgressMode = "live" | "lines" | "steps";

/** Live on a terminal unless -d; plain lines otherwise. */
export function progressMode(io: Output, disableTui: boolean): ProgressMode {
  if (disableTui) return "lines";
  return io.isTTY ? "live" : "steps";
}

// Redraws of the live block at most this often, except when an evaluation starts or ends.
const REDRAW_MS = 80;
const MAX_LABEL = 40;
const ENDED = 11;

export class ProgressBoard {
  private readonly entries: EvalProgress[] = [];
  private readonly tenths = new Map<EvalProgress, number>();
  private lastDraw = 0;

  constructor(
    private readonly io: Output,
    private readonly mode: ProgressMode,
  ) {}

  /** A new entry, queued until its evaluation starts. */
  add(label: string): EvalProgress {
    const progress = new EvalProgress(label);
    this.entries.push(progress);
    return progress;
  }

  /** Shows what changed in `progress`: it started, ended, or finished rollouts. */
  update(progress: EvalProgress): void {
    const milestone = progress.phase !== "running" || progress.done === 0;
    if (this.mode === "live") this.drawLive(milestone);
    else if (this.mode === "lines") {
      // The start is announced by the evaluation itself.
      if (progress.phase !== "queued" && !(progress.phase === "running" && progress.done === 0)) {
        this.io.err(`${progress.label} ${describe(progress)}`);
      }
    } else this.step(progress);
  }

  /** Draws the final state; the live block (if one was drawn) stays on screen above what follows. */
  end(): void {
    if (this.mode !== "live" || this.lastDraw === 0) return;
    this.drawLive(true);
    this.io.status(null);
  }

  // A line at every tenth of the way, and one when the evaluation ends unless the last said it all.
  private step(progress: EvalProgress): void {
    if (progress.phase === "queued") return;
    const last = this.tenths.get(progress) ?? -1;
    if (last === ENDED) return;
    if (progress.phase !== "running") {
      this.tenths.set(progress, ENDED);
      if (progress.phase !== "done" || last < 10) this.io.err(`${progress.label} ${describe(progress)}`);
      return;
    }
    if (progress.done === 0) return; // the start is announced by the evaluation itself
    const tenth = progress.total === 0 ? 10 : Math.floor((progress.done / progress.total) * 10);
    if (tenth > last) {
      this.tenths.set(progress, tenth);
      this.io.err(`${progress.label} ${describe(progress)}`);
    }
  }

  private drawLive(force: boolean): void {
    const now = performance.now();
    if (!force && now - this.lastDraw < REDRAW_MS) return;
    this.lastDraw = now;
    const room = Math.max(1, this.io.rows - 2);
    let shown = this.entries;
    const lines: string[] = [];
    if (shown.length > room) {
      // More evaluations than rows: the running ones, and a count of the others.
      shown = shown.filter((p) => p.phase === "running").slice(0, room - 1);
      const finished = this.entries.filter((p) => p.phase !== "running" && p.phase !== "queued").length;
      const queued = this.entries.filter((p) => p.phase === "queued").length;
      lines.push(`… ${finished} finished, ${queued} queued`);
    }
    const labelWidth = Math.min(MAX_LABEL, Math.max(...shown.map((p) => p.label.length)));
    const barWidth = Math.max(10, Math.min(30, this.io.columns - 60 - labelWidth));
    const rows = shown.map((p) => {
      const label = clip(p.label, labelWidth).padEnd(labelWidth);
      if (p.phase !== "running") return `${label} ${describe(p)}`;
      const filled = p.total === 0 ? barWidth : Math.round((p.done / p.total) * barWidth);
      return `${label} ${"█".repeat(filled)}${"░".repeat(barWidth - filled)} ${p.line()}`;
    });
    this.io.status([...rows, ...lines].join("\n"));
  }
}

function describe(progress: EvalProgress): string {
  switch (progress.phase) {
    case "queued":
      return "queued";
    case "running":
      return progress.line();
    case "done":
      return `done · ${progress.line()}`;
    case "interrupted":
      return `interrupted · ${progress.line()}`;
    case "failed":
      return "failed";
  }
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

const PING_TIMEOUT_MS = 5_000;

/** Pings of `--heartbeat-url` as rollouts finish; see the file comment. */
export class Heartbeat {
  private inFlight: Promise<void> | null = null;
  private sent = 0;
  private failed = 0;

  /** `warn` prints a line on stderr. */
  constructor(
    readonly url: string,
    private readonly warn: (line: string) => void,
  ) {}

  /** Pings, unless a ping is still waiting for its answer. */
  beat(): void {
    if (this.inFlight) return;
    this.sent++;
    this.inFlight = this.ping().finally(() => {
      this.inFlight = null;
    });
  }

  /** Waits for the ping in flight, then reports failures, if any. */
  async close(): Promise<void> {
    await this.inFlight;
    if (this.failed > 0) this.warn(`heartbeat: ${this.failed} of ${this.sent} pings to ${this.url} failed`);
  }

  private async ping(): Promise<void> {
    let problem: string | null = null;
    try {
      const response = await fetch(this.url, { signal: AbortSignal.timeout(PING_TIMEOUT_MS) });
      // The body is not needed, but reading it frees the connection.
      await response.arrayBuffer();
      if (!response.ok) problem = `HTTP ${response.status}`;
    } catch (error) {
      const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : "";
      problem = error instanceof Error ? `${error.message}${cause}` : String(error);
    }
    if (problem === null) return;
    this.failed++;
    if (this.failed === 1) {
      this.warn(
        `heartbeat to ${this.url} failed (${problem}); the run goes on, and failures are counted at the end`,
      );
    }
  }
}

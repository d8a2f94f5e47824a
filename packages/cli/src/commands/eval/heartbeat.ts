/**
 * `vf eval --heartbeat-url URL`: a GET to an uptime monitor's URL each time rollouts finish, as
 * verifiers does, so the monitor alerts when a run stops making progress (not on a clock: a run
 * that hangs must go quiet). No body; at most one ping in flight, later progress skips while one
 * waits; each gives up after 5 s. A failed ping never stops the run: the first is reported when it
 * happens, and all of them in one line at the end.
 */
import { httpUrlFlag } from "../../flag-values.ts";

const PING_TIMEOUT_MS = 5_000;

/** The URL of --heartbeat-url, checked: an http(s) URL. */
export const heartbeatUrlFlag = httpUrlFlag("--heartbeat-url", "https://hc-ping.com/<uuid>");

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

/**
 * One listener on a run's cancel signal that fans out to each rollout's own controller. Adding a
 * listener per rollout to a shared signal costs O(listeners) each (EventTarget checks for
 * duplicates), which turned quadratic at hundreds of rollouts in flight.
 */
export class CancelScope {
  private readonly children = new Set<AbortController>();
  private readonly onAbort: () => void;

  constructor(private readonly parent?: AbortSignal) {
    this.onAbort = () => {
      for (const child of this.children) child.abort(parent?.reason);
    };
    parent?.addEventListener("abort", this.onAbort, { once: true });
  }

  /** Stops listening to the parent: a long-lived signal passed to many runs keeps no listener per run. */
  dispose(): void {
    this.parent?.removeEventListener("abort", this.onAbort);
  }

  /** Aborts every child but `except` (the work that asked for it) with `reason`. */
  abortAll(reason: unknown, except?: AbortSignal): void {
    for (const child of this.children) if (child.signal !== except) child.abort(reason);
  }

  /** A signal that aborts with the parent; call `release` when the work is done. */
  child(): { signal: AbortSignal; release: () => void } {
    const controller = new AbortController();
    if (this.parent?.aborted) controller.abort(this.parent.reason);
    else this.children.add(controller);
    return { signal: controller.signal, release: () => this.children.delete(controller) };
  }
}

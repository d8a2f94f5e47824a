/**
 * Named hooks run in a fixed order: priority descending, then name ascending. Stop conditions,
 * per-rollout cleanup and per-environment teardown all use it, so their order never depends on the
 * order they were registered in.
 */
export interface Hook<F> {
  name: string;
  priority: number;
  fn: F;
}

export class OrderedHooks<F> {
  private hooks: Hook<F>[] = [];

  /** Adds a hook; a second hook with the same name replaces the first (a subclass overriding it). */
  add(name: string, fn: F, priority = 0): void {
    this.hooks = this.hooks.filter((h) => h.name !== name);
    this.hooks.push({ name, fn, priority });
    this.hooks.sort((a, b) => b.priority - a.priority || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** The hooks in run order. */
  list(): readonly Hook<F>[] {
    return this.hooks;
  }
}

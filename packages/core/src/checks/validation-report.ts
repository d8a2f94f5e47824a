/**
 * What `vf eval validate` found: how many rows it checked and each failure, with its kind and the
 * row it belongs to, grouped by kind for the summary. Failures are values, never thrown.
 */

/**
 * Kinds of failure, in the order a row meets them: the environment or its dataset did not load, a
 * row's prompt did not render, it is longer than the model's context, the reference rollout failed,
 * a reward function raised on the reference, the reference scored below the maximum.
 */
export type FailureKind = "load" | "prompt" | "too_long" | "rollout" | "scoring_error" | "below_max";

/** One failure: its kind, the row (example id, or a task's id; "" for the whole environment), why. */
export interface ValidationFailure {
  kind: FailureKind;
  id: string;
  message: string;
}

/** A validation's result; see the file comment. */
export interface ValidationReport {
  /** Rows (tasks) checked. */
  checked: number;
  /** Rows whose reference was scored. */
  referencesScored: number;
  /** The reward a reference must reach. */
  maxReward: number;
  /** The prompt limit checked, in tokens; null when prompts were not counted. */
  maxPromptTokens: number | null;
  /** The longest prompt seen, in tokens, when they were counted. */
  longestPrompt: number | null;
  failures: ValidationFailure[];
}

/** One kind's failures: how many, and the first few rows with their messages. */
export interface FailureGroup {
  kind: FailureKind;
  count: number;
  examples: { id: string; message: string }[];
}

/** Failures grouped by kind, in `FailureKind` order, each with its first `first` rows (default 3). */
export function groupFailures(failures: readonly ValidationFailure[], first = 3): FailureGroup[] {
  const order: FailureKind[] = ["load", "prompt", "too_long", "rollout", "scoring_error", "below_max"];
  return order.flatMap((kind) => {
    const of = failures.filter((failure) => failure.kind === kind);
    if (of.length === 0) return [];
    return [
      { kind, count: of.length, examples: of.slice(0, first).map(({ id, message }) => ({ id, message })) },
    ];
  });
}

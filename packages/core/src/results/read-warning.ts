/** Something a reader skipped or changed while loading a run; loading went on. */
export interface ReadWarning {
  /** The file it concerns, as a path. */
  file: string;
  /** 1-based line in results.jsonl, when it concerns one line. */
  line?: number;
  message: string;
  /**
   * Set when the line repeats a rollout already read (same example_id and rollout_index): two
   * writers appended to one run. Readers keep the first row; a resume removes the copies.
   */
  duplicate?: { exampleId: number; rolloutIndex: number; firstLine: number };
}

/** "path:line: message", the way compilers print it. */
export function formatWarning(warning: ReadWarning): string {
  return `${warning.file}${warning.line === undefined ? "" : `:${warning.line}`}: ${warning.message}`;
}

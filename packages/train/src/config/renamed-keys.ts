/**
 * Keys vf's training config once had under another name. The schema keeps no aliases (one name per
 * setting), so an old name is still an unknown key, but its message names the new one rather than
 * guessing a near key.
 */

/** Old dotted key → the key that replaced it. */
export const RENAMED_KEYS: ReadonlyMap<string, string> = new Map([
  // prime-rl's name for the newest checkpoints kept, beside keep_interval
  ["checkpoints.keep", "checkpoints.keep_last"],
]);

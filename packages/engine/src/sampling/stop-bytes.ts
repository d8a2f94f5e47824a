/**
 * Stop strings are matched on a sequence's bytes (the byte tokens it sampled), not on decoded text,
 * so a stop string split across tokens or inside a UTF-8 character is still found: the sampler ends
 * a sequence on one, and the server's text stream holds back bytes that may begin one.
 */

/** Whether `bytes` ends with `suffix`. */
export function endsWithBytes(bytes: readonly number[], suffix: Uint8Array): boolean {
  if (suffix.length > bytes.length) return false;
  const start = bytes.length - suffix.length;
  for (let i = 0; i < suffix.length; i++) if (bytes[start + i] !== suffix[i]) return false;
  return true;
}

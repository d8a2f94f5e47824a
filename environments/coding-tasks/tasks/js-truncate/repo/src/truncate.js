/**
 * Shortens `text` to at most `maxLength` characters; when it has to cut, the result ends in
 * `ellipsis` (default "…"), which counts towards `maxLength`.
 * @param {string} text
 * @param {number} maxLength
 * @param {{ ellipsis?: string }} [options]
 * @returns {string}
 */
export function truncate(text, maxLength, options = {}) {
  const ellipsis = options.ellipsis || "…";
  if (text.length <= maxLength) return text;
  return text.slice(0, Math.max(0, maxLength - ellipsis.length)) + ellipsis;
}

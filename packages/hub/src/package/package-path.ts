/**
 * Which relative paths may be part of an environment package (the inclusion rules of the content
 * hash spec) and which are unsafe anywhere (absolute, `..`, backslashes, control characters).
 */

/** Folders left out at any depth: installed dependencies. */
const EXCLUDED_DIRS = new Set(["node_modules"]);
/** Folders left out at the package root only: saved eval runs. */
const EXCLUDED_ROOT_DIRS = new Set(["outputs"]);

/** Why a path is unsafe to extract, or null when it is safe. */
export function unsafePathReason(path: string): string | null {
  if (path === "") return "an empty path";
  if (path.startsWith("/") || /^[A-Za-z]:/.test(path)) return "an absolute path";
  if (path.includes("\\")) return "a backslash in the path";
  if (/[\u0000-\u001f\u007f]/.test(path)) return "a control character in the path";
  const segments = path.split("/");
  if (segments.some((s) => s === "..")) return "a '..' segment (path traversal)";
  if (segments.some((s) => s === "" || s === ".")) return "an empty or '.' segment";
  return null;
}

/**
 * True when the spec includes this (safe, relative) path: no segment starts with a dot, no segment
 * is `node_modules`, and the first segment is not `outputs`.
 */
export function isIncludedPath(path: string): boolean {
  const segments = path.split("/");
  if (segments.some((s) => s.startsWith("."))) return false;
  if (segments.some((s) => EXCLUDED_DIRS.has(s))) return false;
  return !EXCLUDED_ROOT_DIRS.has(segments[0]!);
}

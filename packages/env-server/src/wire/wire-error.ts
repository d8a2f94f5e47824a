/**
 * How a failed request reads on the wire: verifiers' servers put `"<ExceptionType>: <message>"` in a
 * v1 reply's `error`, and Python's `repr(exception)` (`ValueError('...')`) in a v0 reply's.
 */

/** `"<Type>: <message>"` for v1 replies. */
export function v1ErrorText(error: unknown): string {
  const { type, message } = describeError(error);
  return `${type}: ${message}`;
}

/** Python's `repr(exc)` for v0 replies, e.g. `TypeError('boom')`. */
export function v0ErrorText(error: unknown): string {
  const { type, message } = describeError(error);
  return `${type}(${pythonStringRepr(message)})`;
}

/** The class name and message of anything thrown. */
export function describeError(error: unknown): { type: string; message: string } {
  if (error instanceof Error) return { type: error.name || "Error", message: error.message };
  return { type: "Error", message: String(error) };
}

/** A string as Python's repr() writes it: single quotes unless the text has ' and no ". */
export function pythonStringRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const char of text) {
    if (char === quote || char === "\\") out += `\\${char}`;
    else if (char === "\n") out += "\\n";
    else if (char === "\r") out += "\\r";
    else if (char === "\t") out += "\\t";
    else out += char;
  }
  return out + quote;
}

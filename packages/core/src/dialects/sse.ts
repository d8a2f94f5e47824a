/** Server-sent events as the model APIs stream them. */

/** One event: `event: <name>` when named (Responses, Anthropic), then its JSON `data` line. */
export function sseEvent(data: unknown, event?: string): string {
  const line = `data: ${JSON.stringify(data)}\n\n`;
  return event === undefined ? line : `event: ${event}\n${line}`;
}

/** Text cut where a streamed answer sends its deltas: a word at a time, spaces kept. */
export function textPieces(text: string): string[] {
  return text.match(/\s*\S+\s*|\s+/g) ?? [];
}

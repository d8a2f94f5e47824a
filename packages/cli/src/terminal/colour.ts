/**
 * Whether vf colours what it writes, and the colours it uses. Colour goes to terminals only: never
 * into a pipe or a file (logs and scripts read plain text), never with NO_COLOR set (no-color.org);
 * FORCE_COLOR (any value but "0" or "false") turns it on where there is no terminal, as in CI.
 */
import pc from "picocolors";

/** The colours vf uses, each a no-op when colour is off. */
export type Palette = ReturnType<typeof pc.createColors>;

/** Whether a stream should get colour, given the environment's NO_COLOR, FORCE_COLOR and TERM. */
export function wantsColour(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== "0" && force !== "false";
  return Boolean(stream.isTTY) && env.TERM !== "dumb";
}

/** The palette for one stream: real colours, or functions that return their text unchanged. */
export function palette(enabled: boolean): Palette {
  return pc.createColors(enabled);
}

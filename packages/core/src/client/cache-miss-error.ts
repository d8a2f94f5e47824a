/**
 * The one error of a replayed run that met a call its cache has no answer for. It stops the run as a
 * rejected key does (every later call would likely miss too, and a replay is meant to reproduce a
 * recording exactly), and its message names the request so the user can tell what changed.
 */
import { FatalModelError } from "./fatal-model-error.ts";

/** What a cache miss names: enough to recognise the request, none of it secret. */
export interface CacheMissDetails {
  /** The cache folder. */
  dir: string;
  model: string;
  /** The API the call was for. */
  type: string;
  /** The request's digest (the file name's stem). */
  digest: string;
  /** Which identical call of the run this was, from 0; recordings of earlier ones may exist. */
  occurrence: number;
  /** The first words of the request's last message. */
  lastWords: string;
}

/** How many hex digits of the digest a message shows. */
const SHORT_DIGEST = 12;

/** A replayed call with no recorded answer (`--cache-mode replay`). No HTTP call was made: status 0. */
export class CacheMissError extends FatalModelError {
  constructor(readonly details: CacheMissDetails) {
    const nth = details.occurrence > 0 ? `, identical call #${details.occurrence + 1} of the run` : "";
    super(
      `--cache-mode replay: no recorded answer in ${details.dir} for ${details.model} over ${details.type}, request ${details.digest.slice(0, SHORT_DIGEST)}${nth} ("${details.lastWords}"): record it with --cache-mode record (which calls the model), or undo what changed the request`,
      0,
      "",
    );
  }
}

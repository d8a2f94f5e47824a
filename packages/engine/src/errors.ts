/**
 * The engine's errors. Every message states the cause, then what to do. The engine depends on no
 * other package of ours, so it has its own base class; callers map these onto their own hierarchy.
 */

/** The base of every error the engine throws on purpose. */
export class EngineError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** A model config failed validation; `issues` lists each problem as `key: message`. */
export class ConfigError extends EngineError {
  constructor(readonly issues: string[]) {
    super(`invalid model config: ${issues.join("; ")}: fix these keys in the config (or config.json)`);
  }
}

/** A training or sampling batch is malformed; `field` names the offending field, `item` its index. */
export class BatchError extends EngineError {
  constructor(
    message: string,
    readonly item: number,
    readonly field: string,
  ) {
    super(message);
  }
}

/** A sequence does not fit in the model's context (`maxSeqLen`). */
export class SequenceTooLongError extends EngineError {
  constructor(
    readonly length: number,
    readonly maxSeqLen: number,
  ) {
    super(
      `a sequence of ${length} tokens does not fit the model's context of ${maxSeqLen} tokens: ` +
        "shorten the prompt or lower max tokens",
    );
  }
}

/** A checkpoint directory or file is missing, unreadable or not in the expected format. */
export class CheckpointError extends EngineError {
  constructor(
    message: string,
    readonly path: string,
  ) {
    super(message);
  }
}

/** A tensor in a checkpoint does not match the model config (missing, extra, wrong shape or dtype). */
export class TensorMismatchError extends CheckpointError {
  constructor(
    path: string,
    readonly tensor: string,
    readonly expected: string,
    readonly actual: string,
  ) {
    super(
      `tensor "${tensor}" in ${path}: expected ${expected}, found ${actual}: ` +
        "the weights were written for a different model config; load them with the config.json saved beside them",
      path,
    );
  }
}

/** A sampling request is invalid (bad parameter combination, unknown token id, ...). */
export class SamplingError extends EngineError {}

/** A call to a trainer over HTTP (`HttpTrainer`) failed; see the two kinds below. */
export class TrainerHttpError extends EngineError {}

/**
 * The trainer server refused a request (4xx: a bad batch, a missing checkpoint), or the request
 * failed the protocol's schema before it was sent: the caller's to fix.
 */
export class TrainerRefusedError extends TrainerHttpError {}

/**
 * The trainer server could not be reached, failed (5xx), or answered with something that is not
 * the trainer protocol: the server's side to fix or restart.
 */
export class TrainerUnavailableError extends TrainerHttpError {}

/**
 * A packed batch: the tokens of all sequences laid end to end as the rows of one matrix, so
 * sequences of different lengths cost no padding. Only attention and rotary positions look at the
 * sequence boundaries it records.
 */

/** A packed batch: the input of one forward pass. */
export interface PackedBatch {
  tokens: Int32Array; // (N) input token of each row
  positions: Int32Array; // (N) position of each row within its sequence
  seqStarts: Int32Array; // (S) first row of each sequence
  seqLens: Int32Array; // (S) rows of each sequence
  outputRows: Int32Array; // (M) rows whose next-token logits are computed
}

/** Packs sequences end to end; `outputRows` are row indices into the packed batch. */
export function packSequences(sequences: readonly ArrayLike<number>[], outputRows: number[]): PackedBatch {
  const N = sequences.reduce((n, s) => n + s.length, 0);
  const batch: PackedBatch = {
    tokens: new Int32Array(N),
    positions: new Int32Array(N),
    seqStarts: new Int32Array(sequences.length),
    seqLens: new Int32Array(sequences.length),
    outputRows: Int32Array.from(outputRows),
  };
  let row = 0;
  sequences.forEach((seq, s) => {
    batch.seqStarts[s] = row;
    batch.seqLens[s] = seq.length;
    for (let t = 0; t < seq.length; t++, row++) {
      batch.tokens[row] = seq[t]!;
      batch.positions[row] = t;
    }
  });
  return batch;
}

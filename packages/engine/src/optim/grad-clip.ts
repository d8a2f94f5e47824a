/** Global gradient-norm clipping, as torch.nn.utils.clip_grad_norm_. */
import type { Floats } from "../floats.ts";

/** The L2 norm of the whole gradient, summed in index order in double precision (deterministic). */
export function gradNorm(grads: Floats): number {
  let ss = 0;
  for (let i = 0; i < grads.length; i++) ss += grads[i]! * grads[i]!;
  return Math.sqrt(ss);
}

/**
 * Scales the gradient so its norm is at most `maxNorm` (torch's max / (norm + 1e-6) factor);
 * returns the norm before clipping. `maxNorm` 0 turns clipping off.
 */
export function clipGradNorm(grads: Floats, maxNorm: number): number {
  const norm = gradNorm(grads);
  if (maxNorm > 0) {
    const factor = maxNorm / (norm + 1e-6);
    if (factor < 1) for (let i = 0; i < grads.length; i++) grads[i] = grads[i]! * factor;
  }
  return norm;
}

/**
 * Float buffers. The engine computes in float32; the float64 variant exists so gradient checks can
 * compare against finite differences at double precision with the very same code.
 */

/** A buffer of floats the model computes on. */
export type Floats = Float32Array | Float64Array;

/** The element type of every parameter, gradient and activation buffer of a model. */
export type DType = "f32" | "f64";

/**
 * A zeroed buffer of `length` floats; `shared` puts it on a SharedArrayBuffer so worker threads
 * can read and write it without copies.
 */
export function allocFloats(dtype: DType, length: number, shared = false): Floats {
  const bytes = dtype === "f32" ? 4 : 8;
  const buffer = shared ? new SharedArrayBuffer(length * bytes) : new ArrayBuffer(length * bytes);
  return dtype === "f32" ? new Float32Array(buffer) : new Float64Array(buffer);
}

/** The dtype of a buffer. */
export function dtypeOf(data: Floats): DType {
  return data instanceof Float32Array ? "f32" : "f64";
}

/** Turns any thrown value into the `ErrorData` recorded on a rollout. */
import { errorChain } from "../errors.ts";
import type { ErrorData } from "../results/rollout-record.ts";

export function errorData(error: unknown): ErrorData {
  const chain = errorChain(error);
  const name = error instanceof Error ? error.name : "Error";
  const message = error instanceof Error ? error.message : String(error);
  return {
    error: name,
    message,
    error_chain_repr: chain.join(" <- "),
    error_chain_str: chain.join("\n"),
  };
}

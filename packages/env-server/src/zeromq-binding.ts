/**
 * zeromq, the binding every socket of the env server and of its client is made with. It is an
 * optional package of @vf-rl/env-server (a native addon of about 40 MB), imported once when this
 * package is: `vf train` and `vf eval` load this package without serving anything, and go without
 * it. Making a socket without it throws the line that installs it.
 */
import { importOptional } from "@vf-rl/core/loading";

type Zeromq = typeof import("zeromq");

const binding: { zeromq: Zeromq } | { error: unknown } = await importOptional({
  name: "zeromq",
  neededBy: "serving or reaching an env server",
  load: () => import("zeromq"),
}).then(
  (zeromq) => ({ zeromq }),
  (error: unknown) => ({ error }),
);

/** The binding; throws why it could not be imported (`MissingPackageError` when it is not installed). */
export function zeromq(): Zeromq {
  if ("error" in binding) throw binding.error;
  return binding.zeromq;
}

/**
 * The built-in local model `vf eval` uses when no model or endpoint is given.
 */
import { UserError } from "@vf/core";
import type { ConnectedModel } from "./connect-model.ts";

export async function startBuiltinModel(): Promise<ConnectedModel> {
  throw new UserError(
    "no model given and the built-in local model is not available in this build: pass -m MODEL -b URL (and -k KEY_VAR), or -m with an endpoint_id from configs/endpoints.toml",
  );
}

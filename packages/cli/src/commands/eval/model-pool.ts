/**
 * The model connections of one `vf eval` command: evaluations that reach the same model the same way
 * (a sweep over temperatures, several environments on one endpoint) share one connection, so the
 * built-in model is started once and each endpoint is checked once.
 */
import { type ConnectedModel, connectModel } from "./connect-model.ts";
import type { EvalSpec } from "./eval-spec.ts";

// Settings of an evaluation that do not change how its model is reached; every other key of the
// spec (model, endpoint, key variable, headers, client type, ...) tells connections apart.
const NOT_CONNECTION: ReadonlySet<string> = new Set<keyof EvalSpec>([
  "envId",
  "label",
  "name",
  "envArgs",
  "extraEnvKwargs",
  "numExamples",
  "rolloutsPerExample",
  "sampling",
  "maxConcurrent",
  "timeoutSeconds",
  "maxRetries",
  "shuffle",
  "shuffleSeed",
  "independentScoring",
  "interleaveScoring",
  "stateColumns",
]);

export class ModelPool {
  private readonly connections = new Map<string, Promise<ConnectedModel>>();

  /** The connection for `spec`'s model, made on first use. */
  connect(spec: EvalSpec): Promise<ConnectedModel> {
    const key = JSON.stringify(
      Object.entries(spec)
        .filter(([field]) => !NOT_CONNECTION.has(field))
        .sort(([a], [b]) => a.localeCompare(b)),
    );
    let connection = this.connections.get(key);
    if (!connection) {
      connection = connectModel(spec);
      this.connections.set(key, connection);
    }
    return connection;
  }

  /** Closes every connection made (a failed one has nothing to close). */
  async close(): Promise<void> {
    const settled = await Promise.allSettled(this.connections.values());
    this.connections.clear();
    await Promise.all(settled.map((s) => (s.status === "fulfilled" ? s.value.close() : undefined)));
  }
}

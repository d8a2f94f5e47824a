/**
 * `vf eval --env-server`: the evaluation's rollouts run in an env server (verifiers' flag) instead
 * of this process: a pool of `-w` worker processes started here for this run (default one per 256
 * rollouts in flight, as verifiers), or a server already running at the given address. The
 * environment is still loaded here for its rows; reward code runs in the workers and never blocks
 * this process.
 */
import type { RolloutInput } from "@vf-rl/core";
import type { RolloutRecord } from "@vf-rl/core/results";
import { UsageError } from "../../cli-errors.ts";
import type { ConnectedModel } from "./connect-model.ts";
import type { EvalSpec } from "./eval-spec.ts";

/**
 * The address of `--env-server ADDRESS`, checked: a running server's `tcp://HOST:PORT` (port 1 to
 * 65535) or `ipc://PATH`. ZeroMQ throws "Invalid argument" on anything else, or waits for a port
 * it cannot reach.
 */
export function envServerAddressFlag(value: string): string {
  const port = /^tcp:\/\/[^/]+:(\d+)$/.exec(value)?.[1];
  const valid = port !== undefined ? Number(port) >= 1 && Number(port) <= 65535 : /^ipc:\/\/./.test(value);
  if (!valid) {
    throw new UsageError(
      `--env-server takes a running env server's address, tcp://HOST:PORT (port 1 to 65535) or ipc://PATH, got "${value}": e.g. --env-server tcp://127.0.0.1:5000, or --env-server alone to start one`,
    );
  }
  return value;
}

/** A started (or reached) env server and the runner that sends it the evaluation's units. */
export interface EnvServerRun {
  address: string;
  workers: number | null;
  runUnit: (inputs: RolloutInput[], context: { signal: AbortSignal | undefined }) => Promise<RolloutRecord[]>;
  close(): Promise<void>;
}

/** Starts or reaches the server; `where` is an address, or true to start one. */
export async function openEnvServer(options: {
  where: string | true;
  numWorkers: number | undefined;
  spec: EvalSpec;
  connected: ConnectedModel;
  sampling: Record<string, unknown>;
  log: (line: string) => void;
}): Promise<EnvServerRun> {
  const { EnvClient, remoteRunner, startEnvServer } = await import("@vf-rl/env-server");
  const { spec } = options;
  const workers = options.numWorkers ?? Math.max(1, Math.ceil(spec.maxConcurrent / 256));
  const server =
    options.where === true
      ? await startEnvServer({
          envId: spec.envId,
          envArgs: spec.envArgs,
          extraEnvKwargs: spec.extraEnvKwargs,
          address: "tcp://127.0.0.1:0",
          maxWorkers: workers,
          elastic: false,
          // Every rollout this evaluation keeps in flight gets a worker slot at once.
          maxConcurrent: Math.ceil(spec.maxConcurrent / workers),
          // The pool may send this evaluation's own keys, and only those (see env-server's README).
          keyVars: options.connected.endpoints.flatMap((e) => (e.apiKeyVar ? [e.apiKeyVar] : [])),
          log: options.log,
        })
      : undefined;
  const address = server?.address ?? (options.where as string);
  const client = new EnvClient(address);
  try {
    if (server) await server.ready;
    await client.waitForStartup({ timeoutSeconds: 60 });
  } catch (error) {
    client.close();
    await server?.close();
    throw error;
  }
  return {
    address,
    workers: server ? workers : null,
    runUnit: remoteRunner({
      client,
      endpoints: options.connected.endpoints,
      model: options.connected.model,
      sampling: options.sampling,
      maxRetries: spec.maxRetries,
      stateColumns: spec.stateColumns,
      independent: spec.independentScoring,
    }),
    close: async () => {
      client.close();
      await server?.drain();
    },
  };
}

/**
 * @vf-rl/env-server: vf environments served over verifiers' ZeroMQ environment-server protocols
 * (v1 and v0) by a pool of worker processes, and a client of those protocols.
 */
export {
  type ClientConfigV1,
  EnvClient,
  EnvServerRequestError,
  type RunGroupOptions,
  type RunOptions,
} from "./client/env-client.ts";
export { type RemoteRunnerOptions, remoteRunner } from "./client/remote-runner.ts";
export { ServedEnvironment } from "./client/served-environment.ts";
export type {
  Episode,
  MessageNode,
  ModelCall,
  Trace,
  TraceError,
  TraceTask,
} from "./episode/episode.ts";
export {
  type EnvServer,
  EnvServerAddressError,
  type EnvServerOptions,
  startEnvServer,
} from "./server/env-server.ts";
export { EnvLoadError } from "./server/worker-pool.ts";
export { fromRolloutOutput, TRAJECTORY_COLUMN } from "./wire/rollout-output.ts";
export { fromTaskData, type TaskData, toTaskData } from "./wire/task-data.ts";
export { StatsReply } from "./wire/v1-protocol.ts";

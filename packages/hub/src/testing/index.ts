/**
 * @vf-rl/hub/testing: helpers for testing against a Hub offline: an in-process Hub, sample packages and
 * runs, hand-made tar entries, and a throwaway PostgreSQL server.
 */

export { freePort, type PostgresServer, postgresBinDir, startPostgresServer } from "./postgres-server.ts";
export { type SampleRunOptions, writeSampleRun } from "./sample-run.ts";
export { rawTarEntry, rawTgz } from "./tar-entries.ts";
export {
  createTestHub,
  type JsonBody,
  jsonOf,
  samplePackage,
  sampleTarball,
  type TestHub,
  writeSamplePackage,
} from "./test-hub.ts";

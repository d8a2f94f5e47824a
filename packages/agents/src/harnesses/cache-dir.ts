/**
 * Where agent CLIs are installed for harnesses (`Harness.prepare`'s cacheDir): `VF_HARNESS_CACHE`,
 * else the user's cache folder. As root the default is /var/cache/vf/harnesses instead of
 * /root/.cache, which only root can enter: the local sandbox runs the CLI as an unprivileged user,
 * who must be able to read it.
 */
import { homedir } from "node:os";
import { join } from "node:path";

/** The harness cache folder; see the file comment. */
export function harnessCacheDir(
  env: NodeJS.ProcessEnv = process.env,
  uid = process.getuid?.() ?? -1,
): string {
  if (env.VF_HARNESS_CACHE) return env.VF_HARNESS_CACHE;
  if (uid === 0) return "/var/cache/vf/harnesses";
  return join(env.XDG_CACHE_HOME || join(homedir(), ".cache"), "vf", "harnesses");
}

/** The folders a local sandbox must show read-only for `harness` to run: an npm CLI's install. */
export function harnessReadOnlyPaths(harness: object, cacheDir: string): string[] {
  const installDir = (harness as { installDir?: (cacheDir: string) => string }).installDir;
  return typeof installDir === "function" ? [installDir(cacheDir)] : [];
}

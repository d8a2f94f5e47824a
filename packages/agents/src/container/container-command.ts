/**
 * The engine commands of the container runtime, as argument lists (Docker's and Podman's are the
 * same): start a runtime's container, run a program in it, end a program's process group, remove
 * it, and list the containers of dead hosts. Pure, so that what a container may do is read and
 * tested here, where no engine runs.
 */
import type { NetworkListener } from "../network/network-plan.ts";

/** Where things are inside every container. */
export const CONTAINER = {
  workdir: "/workspace",
  home: "/home/agent",
  /** The helper (container-init.mjs), the forwarder's sockets and the execs' process groups. */
  init: "/vf/init.mjs",
  net: "/vf/net",
  run: "/vf/run",
  /** The label that names the host (its mark, see host-folder.ts) on every container it starts. */
  hostLabel: "vf.agent.host",
} as const;

/** What a runtime's container is started with. */
export interface ContainerSpec {
  /** Its name, `vf-agent-...`: unique on the engine. */
  name: string;
  image: string;
  /** The host process's mark, for removing the containers of dead hosts. */
  hostMark: string;
  /** The user programs run as, `uid:gid`. */
  user: string;
  /** Host folders: the working folder, the forwarder's sockets, the execs' process groups. */
  work: string;
  net: string;
  run: string;
  /** The host's file of container-init.mjs, and the runtime's /etc/hosts. */
  initScript: string;
  hostsFile: string;
  /** Host paths shown read-only at the same place (an agent CLI's package). */
  readOnlyPaths: readonly string[];
  listeners: ReadonlyArray<Pick<NetworkListener, "address" | "port"> & { socket: string }>;
  memoryMb: number;
  maxProcesses: number;
  cpus?: number | undefined;
}

/**
 * `run` arguments: detached, no network but loopback, every capability dropped, no new
 * privileges, limits on memory, processes and CPUs, a read-only root with the runtime's folders
 * and a tmpfs /tmp and home, and the helper serving the network as its main process (under the
 * engine's init, which reaps what programs leave).
 */
export function runArgs(spec: ContainerSpec): string[] {
  const [uid, gid] = spec.user.split(":");
  return [
    "run",
    "--detach",
    "--rm",
    "--name",
    spec.name,
    "--label",
    `${CONTAINER.hostLabel}=${spec.hostMark}`,
    "--init",
    "--network",
    "none",
    "--cap-drop",
    "ALL",
    "--security-opt",
    "no-new-privileges",
    "--pids-limit",
    String(spec.maxProcesses),
    "--memory",
    `${spec.memoryMb}m`,
    ...(spec.cpus === undefined ? [] : ["--cpus", String(spec.cpus)]),
    "--read-only",
    "--tmpfs",
    `/tmp:rw,nosuid,nodev,mode=1777`,
    "--tmpfs",
    `${CONTAINER.home}:rw,nosuid,nodev,uid=${uid},gid=${gid},mode=0700`,
    "--user",
    spec.user,
    "--workdir",
    CONTAINER.workdir,
    "--volume",
    `${spec.work}:${CONTAINER.workdir}:rw`,
    "--volume",
    `${spec.net}:${CONTAINER.net}:rw`,
    "--volume",
    `${spec.run}:${CONTAINER.run}:rw`,
    "--volume",
    `${spec.initScript}:${CONTAINER.init}:ro`,
    "--volume",
    `${spec.hostsFile}:/etc/hosts:ro`,
    ...spec.readOnlyPaths.flatMap((path) => ["--volume", `${path}:${path}:ro`]),
    "--env",
    `HOME=${CONTAINER.home}`,
    spec.image,
    "node",
    CONTAINER.init,
    "serve",
    JSON.stringify({ listen: spec.listeners }),
  ];
}

/** `exec` arguments: the program as exec `id`, in its own process group (see container-init.mjs). */
export function execArgs(
  name: string,
  id: string,
  argv: readonly string[],
  options: { env: Record<string, string>; cwd: string; stdin: boolean },
): string[] {
  return [
    "exec",
    ...(options.stdin ? ["--interactive"] : []),
    "--workdir",
    options.cwd,
    ...Object.entries(options.env).flatMap(([key, value]) => ["--env", `${key}=${value}`]),
    name,
    "node",
    CONTAINER.init,
    "exec",
    id,
    "--",
    ...argv,
  ];
}

/** `exec` arguments that end exec `id`'s process group. */
export function killArgs(name: string, id: string): string[] {
  return ["exec", name, "node", CONTAINER.init, "kill", id];
}

/** `rm` arguments that end the container and everything in it. */
export function removeArgs(name: string): string[] {
  return ["rm", "--force", name];
}

/** `ps` arguments that list every container a vf host started: `name host-mark` per line. */
export function listArgs(): string[] {
  return [
    "ps",
    "--all",
    "--filter",
    `label=${CONTAINER.hostLabel}`,
    "--format",
    `{{.Names}} {{.Label "${CONTAINER.hostLabel}"}}`,
  ];
}

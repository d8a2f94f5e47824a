/**
 * The JSON config an exec's init (exec-init.py) reads: what its root holds, its network, its
 * limits and filter, and the program to run. The runtime builds the part every exec shares once,
 * and each exec adds its program.
 */
import { HostForwarder } from "../network/host-forwarder.ts";
import type { NetworkPlan } from "../network/network-plan.ts";
import { INSIDE, type LocalRuntimeOptions } from "./local-options.ts";
import { ETC_MIRRORS, type RuntimeFolder } from "./runtime-folder.ts";

/** What exec-init.py reads; field names are the Python side's. */
export interface ExecConfig {
  root: string;
  /** The system's host paths shown read-only at the same place (links on the way recreated). */
  mirrors: string[];
  /** More such paths, shown after the runtime's own folders (so they may lie under /tmp). */
  read_only: string[];
  /** Programs shown with their dynamic loader and the shared libraries' folder beside it. */
  programs: string[];
  binds: Array<{ host: string; inside: string; writable: boolean }>;
  /** Host folders bound read-only over the runtime's own /etc. */
  etc_mirrors: string[];
  hostname: string;
  net: { dir: string; listen: Array<{ address: string; port: number; socket: string }>; addresses: string[] };
  limits: { data_bytes: number; max_processes: number; max_file_bytes: number; max_open_files: number };
  syscall_filter: string;
  uid: number;
  gid: number;
  exec: { argv: string[]; env: Record<string, string>; cwd: string };
}

/** The config every exec of one runtime shares, without its program. */
export function runtimeConfig(
  options: LocalRuntimeOptions,
  folder: RuntimeFolder,
  plan: NetworkPlan,
  syscallFilter: string,
): Omit<ExecConfig, "exec"> {
  const mb = 1024 * 1024;
  return {
    root: folder.root,
    mirrors: options.systemPaths,
    read_only: options.readOnlyPaths,
    programs: [options.node],
    binds: [
      { host: folder.etc, inside: "/etc", writable: false },
      { host: folder.work, inside: INSIDE.workdir, writable: true },
      { host: folder.home, inside: INSIDE.home, writable: true },
      { host: folder.tmp, inside: INSIDE.tmp, writable: true },
    ],
    etc_mirrors: ETC_MIRRORS,
    hostname: "sandbox",
    net: {
      dir: folder.net,
      listen: plan.listeners.map(({ address, port, target }) => ({
        address,
        port,
        socket: HostForwarder.socketName(target),
      })),
      addresses: plan.addresses,
    },
    limits: {
      data_bytes: options.memoryMb * mb,
      max_processes: options.maxProcesses,
      max_file_bytes: options.maxFileMb * mb,
      max_open_files: options.maxOpenFiles,
    },
    syscall_filter: syscallFilter,
    uid: INSIDE.uid,
    gid: INSIDE.gid,
  };
}

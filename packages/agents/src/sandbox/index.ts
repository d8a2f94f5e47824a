/**
 * @vf-rl/agents/sandbox: the Linux confinement vf's sandboxes share (the python environment's REPL,
 * the agents' local runtime): the namespaces command, the launcher's library of setup steps, the
 * system-call filter, the host folders that dead hosts' successors remove, and what /proc says of a
 * namespace's processes. A sandbox appends its own last stage to the launcher.
 */
export {
  createHostFolder,
  type HostFolderOptions,
  hostMark,
  removeHostFolder,
  removeStaleFolders,
} from "./host-folder.ts";
export {
  isExecutable,
  launcherSource,
  type NamespaceCommand,
  type NamespaceCommandOptions,
  namespaceCommand,
  setupFailure,
  UNSHARE_FLAGS,
} from "./namespace-command.ts";
export { InitProbe, namespaceInit, processState } from "./namespace-init.ts";
export {
  REFUSED_CALLS,
  type RefusedCall,
  type SyscallFilterOptions,
  syscallFilter,
  syscallNumber,
} from "./syscall-filter.ts";

/**
 * How the local sandbox runtime confines an agent and where its tools are. Every field has a
 * default; the limits apply to each process of a sandbox, the time limit to each exec.
 */
import { z } from "zod";

/** Options of `localRuntime`. */
export const LocalRuntimeOptions = z
  .object({
    /**
     * Host folders shown read-only at the same place inside: the system's programs and libraries
     * (a shell, coreutils, git, python), which agents' tools run. Default /usr, /bin, /lib, /lib64
     * and /sbin, those that exist; [] leaves only node and `readOnlyPaths`.
     */
    systemPaths: z.array(z.string().startsWith("/")).default(["/usr", "/bin", "/lib", "/lib64", "/sbin"]),
    /** More host folders or files shown read-only at the same place: an agent CLI's installed package. */
    readOnlyPaths: z.array(z.string().startsWith("/")).default([]),
    /** Node, shown inside with its shared libraries wherever it lives. Default: the node running vf. */
    node: z.string().default(process.execPath),
    /** Writable memory of each process, in MB (RLIMIT_DATA: what it uses, not what it reserves). Default 4096. */
    memoryMb: z.number().int().min(64).default(4096),
    /** Processes and threads of one exec (its own init and node's threads included). Default 512. */
    maxProcesses: z.number().int().min(8).max(65536).default(512),
    /** Size of any one file a program writes, in MB. Default 1024. */
    maxFileMb: z.number().int().positive().default(1024),
    /** Open files per process. Default 4096. */
    maxOpenFiles: z.number().int().min(64).default(4096),
    /** Bytes kept of each of an exec's stdout and stderr; past them the program is stopped. Default 16 MiB. */
    maxOutputBytes: z
      .number()
      .int()
      .positive()
      .default(16 * 1024 * 1024),
    /** The Python interpreter that runs the sandbox's launcher and init. */
    python: z.string().default("/usr/bin/python3"),
    /** util-linux `unshare`; default: /usr/bin/unshare, /bin/unshare, or the first on PATH. */
    unshare: z.string().optional(),
    /** util-linux `setpriv`; found like `unshare`. */
    setpriv: z.string().optional(),
    /** The unprivileged user id the sandbox runs as when vf runs as root. Default 65534 (nobody). */
    sandboxUid: z.number().int().positive().default(65534),
    /** Where runtime folders are made; default the system's temporary folder. */
    tempDir: z.string().optional(),
  })
  .strict();
export type LocalRuntimeOptions = z.infer<typeof LocalRuntimeOptions>;
/** `LocalRuntimeOptions` as a caller writes them: every field optional. */
export type LocalRuntimeOptionsInput = z.input<typeof LocalRuntimeOptions>;

/** Where things are inside every local sandbox. */
export const INSIDE = {
  /** The task's working folder (read-write): `Runtime.workdir`. */
  workdir: "/workspace",
  /** The agent's home (read-write, beside the task's files rather than among them). */
  home: "/home/agent",
  tmp: "/tmp",
  /** The user the program runs as: not root, so agent CLIs run as they would for a person. */
  uid: 1000,
  gid: 1000,
  user: "agent",
} as const;

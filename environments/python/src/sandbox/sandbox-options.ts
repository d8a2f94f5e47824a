/**
 * How a Python sandbox is confined and where its tools are. Every field has a default; the limits
 * apply per sandbox (one per rollout), the time limit per call.
 */
import { z } from "zod";

/** The limits of one sandbox. */
export const SandboxLimits = z
  .object({
    /** Wall time of one call, the threads it starts included, in seconds. Default 10. */
    timeoutSeconds: z.number().positive().max(3600).default(10),
    /** Address space of each process in the sandbox, in MB. Default 512. */
    memoryMb: z.number().int().min(64).default(512),
    /** Processes and threads of the sandbox, its own two included. Default 16. */
    maxProcesses: z.number().int().min(3).max(4096).default(16),
    /** Size of any one file the code writes (and of a call's captured output), in MB. Default 16. */
    maxFileMb: z.number().int().positive().default(16),
    /** Open files per process. Default 256. */
    maxOpenFiles: z.number().int().min(32).default(256),
    /** Characters of a call's output shown to the model; the rest is cut with a note. Default 4000. */
    maxOutputChars: z.number().int().positive().default(4000),
  })
  .strict();
export type SandboxLimits = z.infer<typeof SandboxLimits>;

/** The limits plus the programs the sandbox is built from. */
export const SandboxOptions = SandboxLimits.extend({
  /** The Python interpreter run inside; Debian's, whose runtime lives under /usr. */
  python: z.string().default("/usr/bin/python3"),
  /** util-linux `unshare`; default: /usr/bin/unshare, /bin/unshare, or the first on PATH. */
  unshare: z.string().optional(),
  /** util-linux `setpriv`, used only when vf runs as root; found like `unshare`. */
  setpriv: z.string().optional(),
  /** The unprivileged user id the sandbox runs as when vf runs as root. Default 65534 (nobody). */
  sandboxUid: z.number().int().positive().default(65534),
  /** Where the per-rollout folders are made; default the system's temporary folder. */
  tempDir: z.string().optional(),
  /** How long a sandbox may take to start, in seconds. Default 20. */
  startupSeconds: z.number().positive().default(20),
}).strict();
export type SandboxOptions = z.infer<typeof SandboxOptions>;
/** `SandboxOptions` as a caller writes them: every field optional. */
export type SandboxOptionsInput = z.input<typeof SandboxOptions>;

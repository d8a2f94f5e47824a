/** How the container runtime starts a rollout's container. Every field has a default. */
import { z } from "zod";

/** Options of `containerRuntime`. */
export const ContainerRuntimeOptions = z
  .object({
    /** The engine's command, "docker" or "podman"; default the first whose `info` answers. */
    engine: z.string().optional(),
    /** The image; it must have node on PATH (agent CLIs are node programs). Default node:20-bookworm-slim. */
    image: z.string().default("node:20-bookworm-slim"),
    /** Host paths shown read-only at the same place: an agent CLI's installed package. */
    readOnlyPaths: z.array(z.string().startsWith("/")).default([]),
    /** Memory of the whole container, in MB. Default 4096. */
    memoryMb: z.number().int().min(64).default(4096),
    /** Processes and threads of the whole container. Default 512. */
    maxProcesses: z.number().int().min(8).default(512),
    /** CPUs the container may use; default no limit. */
    cpus: z.number().positive().optional(),
    /** Bytes kept of each of an exec's stdout and stderr; past them the program is stopped. Default 16 MiB. */
    maxOutputBytes: z
      .number()
      .int()
      .positive()
      .default(16 * 1024 * 1024),
    /** How long a container may take to start, pulling a missing image included, in seconds. Default 300. */
    startupSeconds: z.number().positive().default(300),
    /** Where runtime folders are made; default the system's temporary folder. */
    tempDir: z.string().optional(),
  })
  .strict();
export type ContainerRuntimeOptions = z.infer<typeof ContainerRuntimeOptions>;
/** `ContainerRuntimeOptions` as a caller writes them: every field optional. */
export type ContainerRuntimeOptionsInput = z.input<typeof ContainerRuntimeOptions>;

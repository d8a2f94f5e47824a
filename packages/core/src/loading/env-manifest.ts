/**
 * The `vf` field of an environment package's package.json: what makes an npm package an
 * environment, and the defaults `vf eval` uses for it.
 *
 * @example
 * "vf": { "id": "reverse-text", "numExamples": 20, "rolloutsPerExample": 3 }
 * "vf": { "id": "coding-tasks", "kind": "taskset" }
 */
import { z } from "zod";

export const EnvManifest = z
  .object({
    /** The bare id `vf eval <id>` finds it by. */
    id: z.string().regex(/^[a-z0-9][a-z0-9._-]*$/, "lower-case letters, digits, '.', '_' and '-'"),
    /**
     * What the package holds: an environment (the default), whose entry exports
     * `loadEnvironment(args)`, or a taskset, whose entry exports `loadTaskset(args)` and whose
     * tasks are worked on by an agent program (a harness) in a runtime.
     */
    kind: z.enum(["environment", "taskset"]).optional(),
    /** Module exporting `loadEnvironment` (a taskset: `loadTaskset`), relative to the package; default: its main export. */
    entry: z.string().optional(),
    /** Defaults of `vf eval` for this environment. */
    numExamples: z.number().int().optional(),
    rolloutsPerExample: z.number().int().positive().optional(),
    /** Sampling defaults of `vf eval` (max_tokens, temperature, ...). */
    sampling: z.record(z.string(), z.unknown()).optional(),
    description: z.string().optional(),
    tags: z.array(z.string()).optional(),
  })
  .strict();
export type EnvManifest = z.infer<typeof EnvManifest>;

/** The parts of package.json the loader reads. */
export const EnvPackageJson = z.object({
  name: z.string(),
  version: z.string().default("0.0.0"),
  description: z.string().optional(),
  main: z.string().optional(),
  exports: z.unknown().optional(),
  vf: EnvManifest,
});
export type EnvPackageJson = z.infer<typeof EnvPackageJson>;

/**
 * Declares an environment package's entry point: its arguments' zod schema and the function that
 * builds the environment. The result is the `loadEnvironment(args)` the package exports; it checks
 * the arguments against the schema, so bad `--env-args` get a message naming the field.
 *
 * @example
 * export const loadEnvironment = defineEnvironment({
 *   args: z.object({ numTrain: z.number().int().positive().default(100) }),
 *   load: ({ numTrain }) => new SingleTurnEnv({ dataset: makeRows(numTrain), rubric }),
 * });
 */
import type { z } from "zod";
import type { Environment } from "../envs/environment.ts";
import { AuthoringError, EnvArgsError } from "../errors.ts";
import { issueLines } from "../schema-issues.ts";

// biome-ignore lint/suspicious/noExplicitAny: an environment of any state type
type AnyEnvironment = Environment<any>;

/** What `defineEnvironment` takes. */
export interface EnvironmentDefinition<Args extends z.ZodType> {
  /** Schema of the arguments; use `.strict()` so a misspelt argument is caught. */
  args: Args;
  load: (args: z.output<Args>) => AnyEnvironment | Promise<AnyEnvironment>;
}

/** A package's `loadEnvironment`, with its argument schema attached for tools (`vf init`, docs). */
export interface LoadEnvironmentFn<Args extends z.ZodType = z.ZodType> {
  (args?: unknown): Promise<AnyEnvironment>;
  readonly argsSchema: Args;
}

/** Declares a package's `loadEnvironment`: the arguments' zod schema and the function that builds the environment. */
export function defineEnvironment<Args extends z.ZodType>(
  definition: EnvironmentDefinition<Args>,
): LoadEnvironmentFn<Args> {
  // TypeScript catches these in a checked project; an environment run straight from source or
  // written in JavaScript gets its mistake named here instead of a TypeError at load time.
  if (typeof definition?.args?.safeParse !== "function") {
    throw new AuthoringError(
      "defineEnvironment needs args, a zod schema of the environment's arguments: pass e.g. args: z.object({}).strict()",
    );
  }
  if (typeof definition.load !== "function") {
    throw new AuthoringError(
      "defineEnvironment needs load, the function that builds the environment: pass load: (args) => env",
    );
  }
  const load = async (args: unknown = {}) => {
    const parsed = definition.args.safeParse(args ?? {});
    if (!parsed.success) {
      throw new EnvArgsError("", issueLines(parsed.error, "(args)"));
    }
    return definition.load(parsed.data);
  };
  return Object.assign(load, { argsSchema: definition.args });
}

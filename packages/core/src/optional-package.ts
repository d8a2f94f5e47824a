/**
 * Optional packages: what only some commands need (the Hub server's database, the env server's
 * ZeroMQ, Anthropic's SDK, Hugging Face uploads) is an optional peer dependency rather than a
 * dependency, so `npm install -D @vf-rl/cli` stays small. `importOptional` loads one where it is
 * used and turns its absence into one line: what needs it and how to install it.
 */
import { MissingPackageError } from "./errors.ts";

/** An optional package, what needs it, and how to import it. */
export interface OptionalPackage<T> {
  /** Its npm name: "@electric-sql/pglite". */
  name: string;
  /** What needs it, the first words of the message: "the Hub server". */
  neededBy: string;
  /** Imports it, written where it is used so that it resolves from there: `() => import("pg")`. */
  load: () => Promise<T>;
}

/**
 * `pkg.load()`, or a `MissingPackageError` when package `pkg.name` itself is not installed ("the Hub
 * server needs @electric-sql/pglite: npm install -D @electric-sql/pglite"). Any other failure (a
 * dependency of that package missing, a native addon that does not load) is thrown as it is.
 *
 * @example
 * const { PGlite } = await importOptional({
 *   name: "@electric-sql/pglite",
 *   neededBy: "the Hub server",
 *   load: () => import("@electric-sql/pglite"),
 * });
 */
export async function importOptional<T>(pkg: OptionalPackage<T>): Promise<T> {
  try {
    return await pkg.load();
  } catch (error) {
    if (isPackageNotFound(error, pkg.name)) {
      throw new MissingPackageError(pkg.name, pkg.neededBy, { cause: error });
    }
    throw error;
  }
}

/**
 * Whether `error` is Node's "Cannot find package 'NAME' imported from ..." for package `name`, not
 * for one it imports in turn.
 */
function isPackageNotFound(error: unknown, name: string): boolean {
  return (
    error instanceof Error &&
    (error as { code?: unknown }).code === "ERR_MODULE_NOT_FOUND" &&
    error.message.includes(`'${name}'`)
  );
}

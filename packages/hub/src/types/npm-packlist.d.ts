/**
 * The part of npm-packlist (npm's own list of the files `npm pack` puts in a package) that we call.
 * npm hands it an Arborist tree; it reads only these fields of it.
 */
declare module "npm-packlist" {
  interface PackTree {
    /** The package folder. */
    path: string;
    /** Its package.json, parsed: `files`, `main`, `bin`, `browser`, `bundleDependencies` are read. */
    package: Record<string, unknown>;
    isProjectRoot: boolean;
    /** Dependencies by name, for bundleDependencies; empty bundles nothing. */
    edgesOut: Map<string, unknown>;
    workspaces?: Map<string, string>;
  }
  interface PackListOptions {
    path?: string;
    /** The workspace root, when the package is one of its workspaces. */
    prefix?: string;
    /** The workspace folders being packed. */
    workspaces?: string[];
  }
  /** Relative POSIX paths of the files `npm pack` would put in the package. */
  export default function packlist(tree: PackTree, options?: PackListOptions): Promise<string[]>;
}

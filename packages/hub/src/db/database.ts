/**
 * The one database interface of the Hub: parameterised SQL (PostgreSQL dialect) and transactions.
 * PGlite (embedded, the default) and a PostgreSQL server (`pg`) implement it; the same contract suite
 * runs against both. Parameters are always bound, never spliced into SQL text.
 */

/** Something that runs a statement: the database itself or an open transaction. */
export interface Queryable {
  /** Rows of `sql` run with `params` bound to `$1, $2, ...`. */
  query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<Row[]>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

/** A database the Hub stores its records in. */
export interface Database extends Queryable {
  /** Which implementation this is, for logs and the contract suite's names. */
  readonly kind: "pglite" | "postgres";
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Closes connections; the database must not be used after. */
  close(): Promise<void>;
}

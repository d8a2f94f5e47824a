/**
 * What each environment's curriculum did by a step, as the step's metrics row keeps it
 * (`curriculum`, by environment id) and as the console line tells it: where its rows stand (seen,
 * in each pool, retired) and the groups its gates rejected in the step's batch.
 */
import { z } from "zod";

/** One environment's curriculum after a step. */
export const EnvCurriculumRow = z.object({
  /** Rows of the environment. */
  rows: z.number().int(),
  /** Rows drawn so far (a difficulty pool: rows scored so far). */
  seen: z.number().int(),
  /** Scored rows in each pool of a difficulty pool, by pool name (none for the standard sampler). */
  pools: z.record(z.string(), z.number().int()),
  /** Scored rows in pools of weight 0: retired, never drawn while their reward keeps them there. */
  retired: z.number().int(),
  /** Groups of this step's batch each gate rejected, by gate name. */
  rejected: z.record(z.string(), z.number().int()),
});
export type EnvCurriculumRow = z.infer<typeof EnvCurriculumRow>;

/**
 * The curriculum part of a step line, e.g. `vowels 12/16 rows seen (hard 7, normal 3, easy 2: 2 retired),
 * gate flat rejected 3`; empty for environments without a pool or gates (the standard order says nothing new).
 */
export function formatCurriculum(curriculum: Readonly<Record<string, EnvCurriculumRow>>): string {
  const parts: string[] = [];
  for (const [envId, c] of Object.entries(curriculum)) {
    const pools = Object.entries(c.pools);
    const gates = Object.entries(c.rejected);
    if (pools.length === 0 && gates.length === 0) continue;
    const inPools = pools.map(([name, n]) => `${name} ${n}`).join(", ");
    const rows = `${c.seen}/${c.rows} rows seen${pools.length > 0 ? ` (${inPools}: ${c.retired} retired)` : ""}`;
    const rejected = gates.map(([name, n]) => `gate ${name} rejected ${n}`);
    parts.push([`${envId} ${rows}`, ...rejected].join(", "));
  }
  return parts.length > 0 ? `curriculum ${parts.join("; ")}` : "";
}

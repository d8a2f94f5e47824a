/**
 * `[[ablation]]` blocks of an eval config, as verifiers reads them: the block's own keys are fixed,
 * `[ablation.sweep]` lists values per key, and `[ablation.sweep.args]` (alias `env_args`) and
 * `[ablation.sweep.sampling]` list values per environment argument and sampling argument. The
 * cartesian product of the lists becomes one evaluation each, labelled by the values it took.
 *
 * @example
 * [[ablation]]
 * id = "gsm8k"
 * [ablation.sweep]
 * temperature = [0.0, 0.7]
 * [ablation.sweep.args]
 * lenient = [false, true]        # 4 evaluations
 */
import { ConfigError } from "@vf-rl/core";

/** One evaluation of a sweep: its block as if written by hand, and what set it apart. */
export interface SweepCell {
  block: Record<string, unknown>;
  /** e.g. "temperature=0.7, args.lenient=true". */
  label: string;
}

/** Tables of the sweep whose keys are settings of the environment or the sampler, not eval keys. */
const NESTED: Record<string, "args" | "sampling"> = { args: "args", env_args: "args", sampling: "sampling" };
// A typo like `temperature = [0, 0.1, ..., 1]` × three more keys should not start hours of runs.
const MAX_CELLS = 256;

/** Expands one `[[ablation]]` block (`where` names it in messages). */
export function expandAblation(raw: unknown, where: string): SweepCell[] {
  if (!isTable(raw)) throw new ConfigError(`${where} must be a table: write it as [[ablation]]`);
  const { sweep, ...fixed } = raw;
  if (!isTable(sweep) || Object.keys(sweep).length === 0) {
    throw new ConfigError(`${where} has no [ablation.sweep] values: add e.g. temperature = [0.0, 0.7]`);
  }
  const dimensions: Array<{ path: [string] | ["args" | "sampling", string]; values: unknown[] }> = [];
  for (const [key, value] of Object.entries(sweep)) {
    const nested = NESTED[key];
    if (nested && isTable(value)) {
      for (const [inner, values] of Object.entries(value)) {
        dimensions.push({ path: [nested, inner], values: listOf(values, `${where} sweep.${key}.${inner}`) });
      }
    } else {
      dimensions.push({ path: [key], values: listOf(value, `${where} sweep.${key}`) });
    }
  }
  const fixedArgs = { ...asTable(fixed.env_args), ...asTable(fixed.args) };
  const clash = dimensions.find((d) => d.path[0] === "args" && d.path.length === 2 && d.path[1] in fixedArgs);
  if (clash) {
    throw new ConfigError(
      `${where}: args.${clash.path[1]} is both fixed and swept: keep it in [ablation.sweep.args] only`,
    );
  }
  const cells = dimensions.reduce((n, d) => n * d.values.length, 1);
  if (cells > MAX_CELLS) {
    throw new ConfigError(
      `${where} sweeps ${cells} combinations (at most ${MAX_CELLS}): shorten its value lists`,
    );
  }
  return product(dimensions.map((d) => d.values)).map((combo) => {
    // fresh tables per cell: a swept value set in a shared one would reach every cell
    const block: Record<string, unknown> = {
      ...fixed,
      args: { ...fixedArgs },
      sampling: { ...asTable(fixed.sampling) },
    };
    delete block.env_args;
    const parts: string[] = [];
    combo.forEach((value, i) => {
      const { path } = dimensions[i]!;
      if (path.length === 2) (block[path[0]] as Record<string, unknown>)[path[1]] = value;
      else block[path[0]] = value;
      parts.push(`${path.join(".")}=${typeof value === "string" ? value : JSON.stringify(value)}`);
    });
    return { block, label: parts.join(", ") };
  });
}

function product(lists: unknown[][]): unknown[][] {
  return lists.reduce<unknown[][]>((combos, list) => combos.flatMap((c) => list.map((v) => [...c, v])), [[]]);
}

function listOf(value: unknown, where: string): unknown[] {
  if (!Array.isArray(value) || value.length === 0) {
    throw new ConfigError(`${where} must be a non-empty list of values, e.g. [0.0, 0.7]`);
  }
  return value;
}

function isTable(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function asTable(value: unknown): Record<string, unknown> {
  return isTable(value) ? value : {};
}

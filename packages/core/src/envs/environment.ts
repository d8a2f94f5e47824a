/**
 * The base of every environment: a dataset, a rubric, and an abstract `rollout` that runs one
 * interaction. The environment object holds configuration only; everything about one rollout lives
 * in the `RolloutState` it creates, so any number of rollouts can run at once.
 */
import type { ModelClient, SamplingArgs } from "../client/model-client.ts";
import { buildPrompt, type Dataset } from "../datasets/index.ts";
import { AuthoringError, DuplicateMetricError, EnvSettingsError, UserError } from "../errors.ts";
import type { Messages } from "../messages/message.ts";
import { Parser } from "../parsers/parser.ts";
import type { RolloutInput, RolloutState } from "../rollout/rollout-state.ts";
import { Rubric } from "../rubrics/rubric.ts";
import type { Scorer } from "../rubrics/scorer.ts";
import type { ToolDefinition } from "../tools/tool.ts";
import { OrderedHooks } from "./ordered-hooks.ts";

/** A dataset, or a function that builds it when first needed (so loading an env stays cheap). */
export type DatasetSource = Dataset | (() => Dataset | Promise<Dataset>);

/** What every environment is built from. */
export interface EnvironmentOptions<Data> {
  /** Training rows. At least one of `dataset` and `evalDataset` is required. */
  dataset?: DatasetSource;
  /** Evaluation rows; evaluation falls back to `dataset` with a warning when absent. */
  evalDataset?: DatasetSource;
  /** Prepended to every prompt that does not already start with a system message. */
  systemPrompt?: string;
  /** Example turns placed between the system prompt and the question of `question` rows. */
  fewShot?: Messages;
  /** Default `Rubric({ parser })`. */
  rubric?: Scorer<Data>;
  /** Default: the rubric's parser when it has one, else the base `Parser`. */
  parser?: Parser;
  /** Sampling defaults of this environment; the caller's sampling args override them. */
  sampling?: SamplingArgs;
  /**
   * How a perfect model would answer a row (for supervised fine-tuning from the environment, and
   * for tests that show the reward's top). Default: one assistant message holding the row's answer.
   */
  referenceCompletion?: (input: RolloutInput) => Messages;
}

/** What a rollout needs from its caller. */
export interface RolloutContext {
  client: ModelClient;
  model: string;
  /** Merged over the environment's own sampling defaults. */
  sampling?: SamplingArgs;
  /** Cancels the rollout; its cleanup still runs and the rollout rejects with `CancelledError`. */
  signal?: AbortSignal;
  /** Wall-clock limit of setup and generation in seconds, overriding the environment's own. */
  timeoutSeconds?: number;
  /**
   * Headers of each model request read from the rollout's state: header name to state key (see
   * `headersFromState`), e.g. `{ "X-Session-ID": "trajectory_id" }`.
   */
  headersFromState?: Readonly<Record<string, string>>;
}

export interface InputsOptions {
  split: "train" | "eval";
  /** Rows to take (after shuffling); undefined or negative: all. */
  numExamples?: number;
  rolloutsPerExample?: number;
  shuffle?: boolean;
  seed?: number;
}

export interface Inputs {
  inputs: RolloutInput[];
  /** Things the user should know, e.g. that there was no eval split. */
  warnings: string[];
}

export type CleanupFn<Data> = (state: RolloutState<Data>) => void | Promise<void>;
export type TeardownFn = () => void | Promise<void>;

/** A metric an environment reports itself: what reports it (for messages) and its measure. */
interface MonitorMetric<Data> {
  reportedBy: string;
  measure: (state: RolloutState<Data>) => number;
}

/** The base of every environment: its datasets, rubric, parser and sampling defaults, and `rollout`. */
export abstract class Environment<Data = Record<string, unknown>> {
  readonly rubric: Scorer<Data>;
  readonly parser: Parser;
  readonly systemPrompt: string | undefined;
  readonly fewShot: Messages | undefined;
  readonly sampling: SamplingArgs;
  protected readonly cleanups = new OrderedHooks<CleanupFn<Data>>();
  protected readonly teardowns = new OrderedHooks<TeardownFn>();
  private readonly reference: ((input: RolloutInput) => Messages) | undefined;
  private readonly datasetSource: DatasetSource | undefined;
  private readonly evalDatasetSource: DatasetSource | undefined;
  private readonly loaded = new Map<"train" | "eval", Promise<Dataset>>();
  /** The metrics the environment reports itself, by name: what reports it, and how it is measured. */
  private readonly monitors = new Map<string, MonitorMetric<Data>>();

  constructor(options: EnvironmentOptions<Data>) {
    if (!options.dataset && !options.evalDataset) {
      throw new AuthoringError("an environment needs a dataset or an evalDataset: pass one of them");
    }
    this.datasetSource = options.dataset;
    this.evalDatasetSource = options.evalDataset;
    this.systemPrompt = options.systemPrompt;
    this.fewShot = options.fewShot;
    this.sampling = options.sampling ?? {};
    this.reference = options.referenceCompletion;
    const rubricParser = options.rubric instanceof Rubric ? options.rubric.parser : undefined;
    this.parser = options.parser ?? rubricParser ?? new Parser();
    this.rubric = options.rubric ?? new Rubric<Data>({ parser: this.parser });
    this.declareMonitorMetric(
      "num_turns",
      "every environment (the turns of a rollout)",
      (state) => state.turns.length,
    );
  }

  /** Runs one rollout to its end and returns its state (unscored). Never throws for rollout errors. */
  abstract rollout(input: RolloutInput, ctx: RolloutContext): Promise<RolloutState<Data>>;

  /** The completion a perfect model would give for this row (see `referenceCompletion`). */
  referenceCompletion(input: RolloutInput): Messages {
    return this.reference ? this.reference(input) : [{ role: "assistant", content: input.answer }];
  }

  /** The tools offered to the model by default (rows may override with `info.tool_defs`). */
  toolDefs(): ToolDefinition[] {
    return [];
  }

  /** The tools a rollout of `input` is offered: the row's own (`info.tool_defs`), else `toolDefs()`. */
  toolDefsFor(input: RolloutInput): ToolDefinition[] {
    const own = input.info.tool_defs;
    return Array.isArray(own) ? (own as ToolDefinition[]) : this.toolDefs();
  }

  /** The metrics the environment itself reports for a finished rollout: each declared one, measured. */
  monitorMetrics(state: RolloutState<Data>): Record<string, number> {
    return Object.fromEntries([...this.monitors].map(([name, { measure }]) => [name, measure(state)]));
  }

  /**
   * Names of every reward and metric a rollout of this environment reports, each once. Throws
   * DuplicateMetricError when a function added to the rubric since has the name of a monitor metric.
   */
  metricNames(): string[] {
    const rubric = this.rubric.names();
    for (const [name, { reportedBy }] of this.monitors) {
      if (rubric.includes(name)) throw new DuplicateMetricError(name, reportedBy);
    }
    return [...rubric, ...this.monitors.keys()];
  }

  /**
   * Declares a metric the environment reports itself, with what reports it ("ToolEnv (the calls of
   * tool x)") and how it is measured from a finished rollout: name and function declared together.
   * A name the rubric (or another monitor metric) has is refused with DuplicateMetricError, since
   * one value would silently replace the other.
   */
  protected declareMonitorMetric(
    name: string,
    reportedBy: string,
    measure: (state: RolloutState<Data>) => number,
  ): void {
    if (this.rubric.names().includes(name)) throw new DuplicateMetricError(name, reportedBy);
    const earlier = this.monitors.get(name);
    if (earlier !== undefined) {
      throw new AuthoringError(
        `"${name}" is reported by both ${earlier.reportedBy} and ${reportedBy}: rename one of them`,
      );
    }
    this.monitors.set(name, { reportedBy, measure });
  }

  /**
   * Scores finished rollouts: a group (all rollouts of one example) together, which also sets
   * advantages, or each rollout on its own when `independent`.
   */
  async score(states: RolloutState<Data>[], options: { independent: boolean }): Promise<void> {
    const names = this.metricNames(); // refuses a rubric function added since under a monitor metric's name
    if (options.independent) {
      for (const state of states) await this.rubric.scoreRollout(state);
    } else {
      await this.rubric.scoreGroup(states);
    }
    for (const state of states) {
      // A rollout that never began has no data for the environment's own code to read (see `begun`).
      const own = state.begun
        ? this.monitorMetrics(state)
        : Object.fromEntries(names.map((name) => [name, 0]));
      state.metrics = { ...state.metrics, ...own };
    }
  }

  /** The rows of a split as rollout inputs, each repeated `rolloutsPerExample` times. */
  async inputs(options: InputsOptions): Promise<Inputs> {
    const warnings: string[] = [];
    const n = options.numExamples ?? -1;
    // Only -1 means "all": a negative typo must not quietly evaluate (and pay for) the whole split.
    if (!Number.isSafeInteger(n) || n < -1) {
      throw new UserError(`the number of examples must be a whole number ≥ 1, or -1 for all, got ${n}`);
    }
    let split = options.split;
    if (split === "eval" && !this.evalDatasetSource) {
      warnings.push("this environment has no eval split: evaluating on its training rows");
      split = "train";
    }
    if (split === "train" && !this.datasetSource) split = "eval";
    let dataset = await this.dataset(split);
    if (options.shuffle) dataset = dataset.shuffle(options.seed ?? 0);
    dataset = dataset.take(n);
    const r = options.rolloutsPerExample ?? 1;
    const inputs: RolloutInput[] = [];
    for (const example of dataset.examples) {
      const prompt = buildPrompt(example, { systemPrompt: this.systemPrompt, fewShot: this.fewShot });
      for (let i = 0; i < r; i++) {
        inputs.push({
          exampleId: example.exampleId,
          rolloutIndex: i,
          prompt,
          answer: example.answer,
          info: example.info,
          task: example.task,
        });
      }
    }
    return { inputs, warnings };
  }

  /** The dataset of a split, built once. */
  dataset(split: "train" | "eval"): Promise<Dataset> {
    let loaded = this.loaded.get(split);
    if (!loaded) {
      const source = split === "train" ? this.datasetSource : this.evalDatasetSource;
      if (!source)
        throw new AuthoringError(
          `this environment has no ${split} dataset: pass ${split === "eval" ? "evalDataset" : "dataset"} to its constructor`,
        );
      loaded = Promise.resolve(typeof source === "function" ? source() : source);
      this.loaded.set(split, loaded);
    }
    return loaded;
  }

  /**
   * Changes settings of a loaded environment (`vf eval -x '{"max_turns": 3}'`). Environments list
   * what they accept; the base environment accepts nothing.
   */
  configure(settings: Record<string, unknown>): void {
    const keys = Object.keys(settings);
    if (keys.length > 0) {
      throw new EnvSettingsError(
        `this environment takes no settings (got ${keys.join(", ")}): drop them from the environment settings`,
      );
    }
  }

  /**
   * Registers a per-rollout cleanup; it runs after every rollout that began (its data made), on
   * error, timeout and cancellation too.
   */
  addCleanup(name: string, fn: CleanupFn<Data>, priority = 0): void {
    this.cleanups.add(name, fn, priority);
  }

  /** Registers a per-environment teardown, run once by `teardown()`. */
  addTeardown(name: string, fn: TeardownFn, priority = 0): void {
    this.teardowns.add(name, fn, priority);
  }

  /** Runs the teardown hooks (each once, in order); errors are collected and thrown together. */
  async teardown(): Promise<void> {
    const errors: unknown[] = [];
    for (const hook of this.teardowns.list()) {
      try {
        await hook.fn();
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length > 0) throw new AggregateError(errors, "environment teardown failed");
  }
}

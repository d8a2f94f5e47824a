/**
 * A client of an env server (vf's or verifiers'): one DEALER socket, requests matched to replies
 * by id whatever order they come back in. It speaks v1 (`health`, `run`, `cancel`, and vf's
 * `tasks` and `stats`) and v0 (`run_group`, `run_rollout`, `ping`). Aborting a run's signal sends the server a
 * cancel and rejects with `CancelledError` at once.
 *
 * @example
 * const client = new EnvClient("tcp://127.0.0.1:5000");
 * await client.waitForStartup();
 * const { tasks } = await client.tasks({ split: "eval", numExamples: 4 });
 * const episode = await client.run({ taskData: tasks[0], client: { base_url: url, api_key_var: "" }, model: "m" });
 * client.close();
 */
import { randomUUID } from "node:crypto";
import { CancelledError, VfError } from "@vf-rl/core/errors";
import type { Dealer } from "zeromq";
import type { Episode } from "../episode/episode.ts";
import { SerialSender } from "../server/serial-sender.ts";
import { pack, unpack } from "../wire/encoding.ts";
import type { TaskData } from "../wire/task-data.ts";
import { PING, type RolloutOutput, type V0Replies } from "../wire/v0-protocol.ts";
import { type FailedReply, StatsReply, type V1Method, type V1Replies } from "../wire/v1-protocol.ts";
import { zeromq } from "../zeromq-binding.ts";

/** What the server sent: a success of one method or request type, or a failure. */
type AnyReply = V1Replies[V1Method] | V0Replies[keyof V0Replies] | FailedReply;

/** A request the server answered with `success: false`; `message` is its error text. */
export class EnvServerRequestError extends VfError {
  constructor(
    message: string,
    /** The server's address. */
    readonly address: string,
  ) {
    super(message);
  }
}

/** The endpoint a v1 run calls (verifiers' `ClientConfig`). */
export interface ClientConfigV1 {
  type?: "eval" | "train";
  base_url: string;
  /** Variable holding the key, read on the server; "" for none. */
  api_key_var: string;
  headers?: Record<string, string>;
}

/** Options of `run`. */
export interface RunOptions {
  taskData: TaskData | Record<string, unknown>;
  client: ClientConfigV1;
  model: string;
  sampling?: Record<string, unknown>;
  signal?: AbortSignal;
}

/** Options of `runGroup` (v0): rows in verifiers' RolloutInput shape and a legacy ClientConfig. */
export interface RunGroupOptions {
  inputs: Array<Record<string, unknown>>;
  clientConfig: Record<string, unknown>;
  model: string;
  samplingArgs?: Record<string, unknown>;
  maxRetries?: number;
  stateColumns?: string[];
  signal?: AbortSignal;
}

type Waiter = (data: Uint8Array) => void;

export class EnvClient {
  private readonly socket: Dealer;
  private readonly sender: SerialSender;
  private readonly waiting = new Map<string, Waiter>();
  private closed = false;

  constructor(readonly address: string) {
    this.socket = new (zeromq().Dealer)({ linger: 0, sendHighWaterMark: 0, receiveHighWaterMark: 0 });
    this.socket.connect(address);
    this.sender = new SerialSender(this.socket, () => {});
    void this.receive();
  }

  /** Whether the server answers `health` within `timeoutSeconds`. */
  async health(timeoutSeconds = 2): Promise<boolean> {
    try {
      const reply = await this.request("v1", ["health", pack({})], { timeoutMs: timeoutSeconds * 1000 });
      return reply.success === true;
    } catch (error) {
      if (error instanceof HealthTimeout) return false;
      throw error;
    }
  }

  /** Polls `health` every `intervalSeconds` (default 0.25) until the server answers; throws after `timeoutSeconds` (default 120). */
  async waitForStartup(options: { timeoutSeconds?: number; intervalSeconds?: number } = {}): Promise<void> {
    const timeoutSeconds = options.timeoutSeconds ?? 120;
    const deadline = Date.now() + timeoutSeconds * 1000;
    while (Date.now() < deadline) {
      if (await this.health(Math.min(2, options.intervalSeconds ?? 1))) return;
      await new Promise((resolve) => setTimeout(resolve, (options.intervalSeconds ?? 0.25) * 1000));
    }
    throw new EnvServerRequestError(
      `the env server at ${this.address} did not answer health within ${Math.round(timeoutSeconds)} s: start it (vf env serve) or fix the address`,
      this.address,
    );
  }

  /** The environment's rows as task data (vf's `tasks` method). */
  async tasks(
    options: { split?: "train" | "eval"; numExamples?: number } = {},
  ): Promise<{ envId: string; tasks: TaskData[] }> {
    const reply = await this.v1("tasks", {
      split: options.split ?? "train",
      num_examples: options.numExamples ?? -1,
    });
    return { envId: reply.env_id, tasks: reply.tasks };
  }

  /** The vf version serving and what the server holds now (vf's `stats` method): workers, accepted and queued runs, held replies. */
  async stats(): Promise<StatsReply> {
    // Parsed, not only typed: an older vf's stats lack fields, and this says which.
    return StatsReply.parse(await this.v1("stats", {}));
  }

  /** Runs one episode (v1 `run`). */
  async run(options: RunOptions): Promise<Episode> {
    const body = {
      task_data: options.taskData,
      client: { type: "eval", headers: {}, ...options.client },
      model: options.model,
      sampling: options.sampling ?? {},
    };
    return (await this.v1("run", body, { signal: options.signal })).episode;
  }

  /** Runs and scores a group of rollouts (v0 `run_group`); returns verifiers' RolloutOutput rows. */
  async runGroup(options: RunGroupOptions): Promise<RolloutOutput[]> {
    const body = { request_type: "run_group", group_inputs: options.inputs, ...v0RunFields(options) };
    return (await this.v0<"run_group">(body, options.signal)).outputs;
  }

  /** Runs and scores one rollout on its own (v0 `run_rollout`); returns its RolloutOutput row. */
  async runRollout(
    options: Omit<RunGroupOptions, "inputs"> & { input: Record<string, unknown> },
  ): Promise<RolloutOutput> {
    const body = { request_type: "run_rollout", input: options.input, ...v0RunFields(options) };
    return (await this.v0<"run_rollout">(body, options.signal)).output;
  }

  /** Whether the server answers the v0 `ping` probe within `timeoutSeconds`. */
  async ping(timeoutSeconds = 2): Promise<boolean> {
    try {
      return (await this.request("v0", [PING], { timeoutMs: timeoutSeconds * 1000 })).success === true;
    } catch (error) {
      if (error instanceof HealthTimeout) return false;
      throw error;
    }
  }

  /** Closes the socket; requests still waiting reject with `CancelledError`. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.socket.close();
    for (const waiter of this.waiting.values()) waiter(new Uint8Array());
    this.waiting.clear();
  }

  /** A v1 request that must succeed: its reply, typed by its method, or `EnvServerRequestError`. */
  private async v1<M extends V1Method>(
    method: M,
    body: unknown,
    options: { signal?: AbortSignal | undefined } = {},
  ): Promise<V1Replies[M]> {
    return this.succeeded(await this.request("v1", [method, pack(body)], options)) as V1Replies[M];
  }

  /** A v0 request of type `T` that must succeed. */
  private async v0<T extends keyof V0Replies>(body: unknown, signal?: AbortSignal): Promise<V0Replies[T]> {
    return this.succeeded(await this.request("v0", [pack(body)], { signal })) as V0Replies[T];
  }

  private succeeded(reply: AnyReply): Exclude<AnyReply, FailedReply> {
    if (reply.success !== true) {
      throw new EnvServerRequestError(String(reply.error ?? "the env server request failed"), this.address);
    }
    return reply;
  }

  private request(
    protocol: "v1" | "v0",
    frames: Array<Uint8Array | string>,
    options: { signal?: AbortSignal | undefined; timeoutMs?: number } = {},
  ): Promise<AnyReply> {
    if (this.closed) return Promise.reject(new CancelledError("the env client is closed"));
    if (options.signal?.aborted) return Promise.reject(new CancelledError("rollout aborted"));
    const id = randomUUID().replaceAll("-", "");
    const encoded = frames.map((f) => (typeof f === "string" ? new TextEncoder().encode(f) : f));
    return new Promise((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const onAbort = () => {
        finish();
        // Fire and forget: tell the server to stop the run; its own reply is then ignored.
        if (protocol === "v1")
          void this.sender.send([
            enc(randomUUID().replaceAll("-", "")),
            enc("cancel"),
            pack({ request_id: id }),
          ]);
        else void this.sender.send([enc(id), new Uint8Array()]);
        reject(new CancelledError("rollout aborted"));
      };
      const finish = () => {
        this.waiting.delete(id);
        clearTimeout(timer);
        options.signal?.removeEventListener("abort", onAbort);
      };
      this.waiting.set(id, (data) => {
        finish();
        if (data.length === 0) return reject(new CancelledError("the env client is closed"));
        try {
          resolve(unpack(data) as AnyReply);
        } catch (error) {
          reject(
            new EnvServerRequestError(
              `the env server sent a reply that is not msgpack: ${String(error)}`,
              this.address,
            ),
          );
        }
      });
      options.signal?.addEventListener("abort", onAbort, { once: true });
      if (options.timeoutMs !== undefined) {
        timer = setTimeout(() => {
          finish();
          reject(new HealthTimeout());
        }, options.timeoutMs);
      }
      void this.sender.send([enc(id), ...encoded]);
    });
  }

  private async receive(): Promise<void> {
    try {
      for await (const [id, data] of this.socket) {
        if (!id || !data) continue;
        this.waiting.get(new TextDecoder().decode(id))?.(data);
      }
    } catch (error) {
      if (!this.socket.closed) throw error;
    }
  }
}

class HealthTimeout extends Error {}

function enc(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

/** What v0's run_group and run_rollout requests both carry besides their inputs. */
function v0RunFields(options: Omit<RunGroupOptions, "inputs">): Record<string, unknown> {
  return {
    client_config: options.clientConfig,
    model: options.model,
    sampling_args: options.samplingArgs ?? {},
    max_retries: options.maxRetries ?? 0,
    state_columns: options.stateColumns ?? null,
  };
}

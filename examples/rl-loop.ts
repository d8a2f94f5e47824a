// The whole GRPO loop, top to bottom, written against the trainer protocol (forwardBackward,
// optimStep, saveWeights) and an OpenAI-compatible inference server, with nothing of @vf-rl/train:
//
//   prompts → G rollouts each, run by the environment against the server → rewards
//   → advantages (reward minus the group's mean) → training items (sampled tokens masked 1,
//   everything else 0, with the sampler's logprobs and the advantage) → forwardBackward
//   → optimStep → saveWeights → the server loads them (POST /update_weights) → next step
//
// `vf train` runs this same loop with what a real run needs on top: sampling the next batch while
// training on this one, difficulty filtering, checkpoints and exact resume, evaluation, metrics
// (see examples/rl-recipe.ts for the same run through it).
//
//   npx tsx examples/rl-loop.ts                      the built-in base model on reverse-text
//   VF_ENV=alphabet-sort VF_STEPS=20 npx tsx examples/rl-loop.ts
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { generate, OpenAIModelClient } from "@vf-rl/core";
import { loadEnvironmentById } from "@vf-rl/core/loading";
import type { RolloutRecord } from "@vf-rl/core/results";
import { BASE_MODEL_DIR, type BatchItem, createLocalTrainer, startEngineServer } from "@vf-rl/engine";

/** What to train, and how hard. */
export interface RlLoopOptions {
  /** Environment id or package folder. */
  envId: string;
  envArgs?: Record<string, unknown>;
  /** Checkpoint folder to start from. */
  model: string;
  steps: number;
  /** Prompts per step (P) and rollouts per prompt (G): P × G rollouts a step. */
  prompts: number;
  groupSize: number;
  learningRate: number;
  maxTokens: number;
  temperature: number;
  /** Where each step's weights are written for the server to load. */
  outDir: string;
  log?: (line: string) => void;
}

/** Runs the loop; returns the mean reward of each step's rollouts. */
export async function rlLoop(o: RlLoopOptions): Promise<{ rewards: number[] }> {
  const log = o.log ?? console.log;

  // The trainer: the engine in this process. The sampler: the engine's OpenAI-compatible server,
  // started on the trainer's weights; environments reach it through the usual OpenAI client.
  const trainer = await createLocalTrainer({ checkpoint: o.model, threads: 2 });
  const weights = (step: number) => join(o.outDir, `step_${step}`);
  await mkdir(o.outDir, { recursive: true });
  await trainer.saveWeights(weights(0));
  const server = await startEngineServer({ checkpoint: weights(0), modelName: "policy", log: () => {} });
  const client = new OpenAIModelClient({ baseUrl: server.url, apiKey: "EMPTY" });

  // The environment, unchanged, and its training rows in a seeded order.
  const { env } = await loadEnvironmentById(o.envId, { args: o.envArgs ?? {} });
  const { inputs: rows } = await env.inputs({
    split: "train",
    shuffle: true,
    seed: 0,
    rolloutsPerExample: 1,
  });

  const rewards: number[] = [];
  try {
    for (let step = 0; step < o.steps; step++) {
      // 1. P prompts, G rollouts each. Asking for logprobs and token ids makes the server return
      //    vLLM's token fields, which land in each record's trajectory[].tokens.
      const prompts = Array.from(
        { length: o.prompts },
        (_, p) => rows[(step * o.prompts + p) % rows.length]!,
      );
      const inputs = prompts.flatMap((row, p) =>
        Array.from({ length: o.groupSize }, (_, g) => ({ ...row, exampleId: p, rolloutIndex: g })),
      );
      const { records } = await generate(env, inputs, {
        clients: client,
        model: "policy",
        sampling: {
          max_tokens: o.maxTokens,
          temperature: o.temperature,
          logprobs: true,
          return_token_ids: true,
        },
        maxConcurrent: 64,
      });

      // 2. Advantages: each reward minus its group's mean (groups share an example id).
      const groups_P = new Map<number, RolloutRecord[]>();
      for (const record of records)
        groups_P.set(record.example_id, [...(groups_P.get(record.example_id) ?? []), record]);
      const batch_D: BatchItem[] = [];
      for (const records_G of groups_P.values()) {
        const mean = records_G.reduce((sum, r) => sum + r.reward, 0) / records_G.length;
        for (const record of records_G) batch_D.push(...trainingItems(record, record.reward - mean));
      }

      // 3. One optimizer step: the gradient of −mean(r·A) over the sampled tokens of the batch,
      //    r = π_trainer/π_sampler (1 here up to rounding: the server holds the trainer's weights).
      const result = await trainer.forwardBackward(batch_D, {
        type: "importance_sampling",
        temperature: o.temperature,
      });
      const optim = await trainer.optimStep({ learningRate: o.learningRate, gradClipNorm: 1 });

      // 4. The new weights go to the server, which samples the next step with them.
      await trainer.saveWeights(weights(step + 1));
      const answer = await fetch(server.url.replace(/\/v1$/, "/update_weights"), {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ weight_dir: weights(step + 1) }),
      });
      if (!answer.ok) throw new Error(`update_weights failed: ${await answer.text()}`);

      const reward = records.reduce((sum, r) => sum + r.reward, 0) / records.length;
      rewards.push(reward);
      log(
        `step ${step + 1}/${o.steps}  reward ${reward.toFixed(3)}  loss ${result.loss.toFixed(4)}  ` +
          `entropy ${result.entropy.toFixed(3)}  mismatch_kl ${result.mismatchKl?.toExponential(1)}  grad ${optim.gradNorm.toFixed(3)}`,
      );
    }
  } finally {
    await client.close();
    await server.close();
    await trainer.close();
    await env.teardown();
  }
  return { rewards };
}

/**
 * The training sequences of one rollout. Turn t's prompt_ids is the whole conversation so far; when
 * it starts with the previous turn's prompt and completion, the turn extends one sequence, and the
 * tokens in between (the environment's reply, the chat template's markers) are context: mask 0.
 * A turn that breaks the prefix starts a new sequence. Sampled tokens: mask 1, their logprob, A.
 */
function trainingItems(record: RolloutRecord, advantage: number): BatchItem[] {
  const items: Required<BatchItem>[] = [];
  let current: Required<BatchItem> | undefined;
  for (const { tokens } of record.trajectory) {
    if (tokens === null)
      throw new Error("the server returned no token ids: serve the policy with vf serve or vLLM");
    const extends_ = current?.tokens.every((id, i) => tokens.prompt_ids[i] === id) ?? false;
    if (!extends_) {
      current = { tokens: [], mask: [], samplerLogprobs: [], advantages: [] };
      items.push(current);
    }
    const item = current!;
    for (const id of tokens.prompt_ids.slice(item.tokens.length)) {
      item.tokens.push(id);
      item.mask.push(0);
      item.samplerLogprobs.push(0);
      item.advantages.push(0);
    }
    tokens.completion_ids.forEach((id, i) => {
      item.tokens.push(id);
      item.mask.push(1);
      item.samplerLogprobs.push(tokens.completion_logprobs[i]!);
      item.advantages.push(advantage);
    });
  }
  return items.filter((item) => item.mask.includes(1));
}

// Run from the command line: the built-in base model on reverse-text unless told otherwise.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await rlLoop({
    envId: process.env.VF_ENV ?? "reverse-text",
    model: process.env.VF_MODEL ?? BASE_MODEL_DIR,
    steps: Number(process.env.VF_STEPS ?? 30),
    prompts: 8,
    groupSize: 8,
    learningRate: Number(process.env.VF_LR ?? 2e-4),
    maxTokens: 128,
    temperature: 1,
    outDir: process.env.VF_OUT ?? "outputs/rl-loop",
  });
}

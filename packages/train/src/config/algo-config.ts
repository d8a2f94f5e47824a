/**
 * `[algo]`: how the rollouts of a batch become per-token credit, chosen by `type` as prime-rl's
 * `[orchestrator.algo]`:
 *
 *   [algo]
 *   type = "grpo"            # default: each rollout's reward minus its group's mean ([advantage])
 *
 *   [algo]
 *   type = "opd"             # on-policy distillation from a frozen teacher
 *   kl_coef = 1.0            # weight of the teacher term
 *   reward_weight = 0.0      # weight of the GRPO advantage added to it (0: pure distillation)
 *   [algo.teacher]
 *   model = "outputs/sft/teacher/final"      # a checkpoint: the run serves it on loopback
 *   # or: url = "http://10.0.0.5:8000/v1", model = "Qwen/Qwen3-8B", api_key_var = "TEACHER_KEY"
 *
 * Under "opd" the student samples its own rollouts, the teacher scores each training sequence's
 * tokens (vLLM's prompt_logprobs) and every sampled token's advantage is
 * kl_coef × (teacher logprob − sampler logprob) + reward_weight × the GRPO advantage
 * (algorithm/distillation.ts). The teacher must share the student's tokenizer and chat template.
 */
import { HttpUrl } from "@vf-rl/core/config";
import { z } from "zod";

/** The frozen model an "opd" run distills from. */
export const TeacherConfig = z
  .object({
    /**
     * Without url: a checkpoint folder of an engine model (config.json and model.safetensors),
     * which the run serves on a loopback port. With url: the model name the server answers to
     * (default: the first one its /v1/models lists).
     */
    model: z.string().min(1).optional(),
    /**
     * Base URL (ending in /v1) of an OpenAI-compatible server that answers vLLM's `prompt_logprobs`
     * on /v1/completions with a token-id prompt (vLLM, vf serve); absent: serve `model` here.
     */
    url: HttpUrl.optional(),
    /** Variable holding the server's API key (default none: "EMPTY"); only with url. */
    api_key_var: z.string().min(1).optional(),
  })
  .strict()
  .superRefine((teacher, context) => {
    if (teacher.url === undefined && teacher.model === undefined) {
      context.addIssue({
        code: "custom",
        path: ["model"],
        message:
          'is missing: give the teacher\'s checkpoint folder as model = "...", or a server as url = "http://HOST:PORT/v1"',
      });
    }
    if (teacher.url === undefined && teacher.api_key_var !== undefined) {
      context.addIssue({
        code: "custom",
        path: ["api_key_var"],
        message: "is the key of a teacher server: set url too, or drop api_key_var for a local checkpoint",
      });
    }
  });
export type TeacherConfig = z.infer<typeof TeacherConfig>;

/** `type = "grpo"`: group-relative advantages from the rewards (the loop's default). */
export const GrpoAlgoConfig = z.object({ type: z.literal("grpo") }).strict();
export type GrpoAlgoConfig = z.infer<typeof GrpoAlgoConfig>;

/** `type = "opd"`: on-policy distillation, the student trained toward a frozen teacher on its own samples. */
export const OpdAlgoConfig = z
  .object({
    type: z.literal("opd"),
    teacher: TeacherConfig,
    /** Weight of the teacher term, teacher logprob − sampler logprob per sampled token (default 1). */
    kl_coef: z.number().nonnegative().default(1),
    /** Weight of the GRPO advantage (reward − group mean) added to every sampled token (default 0). */
    reward_weight: z.number().nonnegative().default(0),
  })
  .strict();
export type OpdAlgoConfig = z.infer<typeof OpdAlgoConfig>;

/** `[algo]`, by its `type`. */
export const AlgoConfig = z.discriminatedUnion("type", [GrpoAlgoConfig, OpdAlgoConfig]);
export type AlgoConfig = z.infer<typeof AlgoConfig>;

/** What a run of this algorithm does differently from what the rest of the config says, one note each. */
export function algoNotes(algo: AlgoConfig, sampling: { temperature: number }): string[] {
  if (algo.type !== "opd") return [];
  const notes = [
    "[algo] opd: every group is trained on, whatever its rewards (no group is dropped for no reward spread, and filter_zero_advantages does not apply): each sampled token carries the teacher's signal",
  ];
  if (sampling.temperature !== 1) {
    notes.push(
      `[algo] opd: sampling.temperature is ${sampling.temperature}, but the teacher scores at temperature 1 (as vLLM's prompt_logprobs): teacher − sampler logprob is then not the reverse KL's estimate; sample at temperature 1 to distill`,
    );
  }
  return notes;
}

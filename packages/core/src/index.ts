/**
 * @vf-rl/core: what an environment's author writes with. Environments and their options, rubrics and
 * reward contexts, parsers, datasets, tools, messages, `defineEnvironment`, `evaluate`/`generate` with
 * the OpenAI chat-completions client, the rollout state, and the error classes.
 *
 * Host code (the CLI, the trainer, the Hub) uses the subpaths: `@vf-rl/core/client` (model clients
 * and endpoints), `/results` (runs on disk), `/loading` (finding and loading environment packages),
 * `/rollout` (rollout state to records), `/config` (config messages), `/errors` (every error class,
 * which the root re-exports), `/mcp` (an environment's tools served over MCP) and `/testing` (a scripted
 * OpenAI-compatible server for offline tests).
 */

export type { ModelClient } from "./client/model-client.ts";
export { SamplingArgs } from "./client/model-client.ts";
export type { ModelClientOptions } from "./client/model-client-options.ts";
export { OpenAIModelClient } from "./client/openai-model-client.ts";
export { Dataset, type FromRowsOptions } from "./datasets/dataset.ts";
export { DatasetRow } from "./datasets/dataset-row.ts";
export { loadDataset } from "./datasets/load-dataset.ts";
export { loadJson } from "./datasets/load-json.ts";
export { loadJsonl } from "./datasets/load-jsonl.ts";
export { loadParquet } from "./datasets/load-parquet.ts";
export { type SeededRandom, seededRandom, seededShuffle } from "./datasets/seeded-random.ts";
export { EnvGroup, type EnvGroupOptions } from "./envs/env-group.ts";
export { Environment, type EnvironmentOptions } from "./envs/environment.ts";
export {
  type DataOptions,
  type EnvResponse,
  MultiTurnEnv,
  type MultiTurnEnvOptions,
  type StopCheck,
} from "./envs/multi-turn-env.ts";
export { SingleTurnEnv, type SingleTurnEnvOptions } from "./envs/single-turn-env.ts";
export { type ToolCallContext, ToolEnv, type ToolEnvOptions, type ToolSession } from "./envs/tool-env.ts";
// Every error class, one list: the same as @vf-rl/core/errors (error-classes.ts).
export * from "./error-classes.ts";
export { type EvaluateOptions, type EvaluateResult, evaluate } from "./generate/evaluate.ts";
export { type GenerateOptions, type GenerateResult, generate } from "./generate/generate.ts";
export { Slots } from "./generate/slots.ts";
export {
  defineEnvironment,
  type EnvironmentDefinition,
  type LoadEnvironmentFn,
} from "./loading/define-environment.ts";
export {
  McpHttpServer,
  McpServerConfig,
  type McpServerInput,
  McpStdioServer,
} from "./mcp/mcp-server-config.ts";
export {
  AssistantMessage,
  assistantMessages,
  Content,
  contentText,
  lastAssistantText,
  Message,
  Messages,
  SystemMessage,
  ToolCall,
  ToolMessage,
  UserMessage,
} from "./messages/message.ts";
export { extractBoxedAnswer } from "./parsers/boxed-answer.ts";
export { extractHashAnswer } from "./parsers/hash-answer.ts";
export { MaybeThinkParser } from "./parsers/maybe-think-parser.ts";
export { Parser, type ParserOptions } from "./parsers/parser.ts";
export { ThinkParser, textAfterThink } from "./parsers/think-parser.ts";
export { XMLParser, type XMLParserOptions } from "./parsers/xml-parser.ts";
export type { TrajectoryStep } from "./records/rollout-record.ts";
export type { Info, RolloutInput, RolloutState } from "./rollout/rollout-state.ts";
export { JudgeRubric, type JudgeRubricOptions } from "./rubrics/judge-rubric.ts";
export { lcsRatio } from "./rubrics/lcs-ratio.ts";
export { lenientCorrectAnswer, MathRubric, type MathRubricOptions } from "./rubrics/math-rubric.ts";
export type { GroupRewardFn, RewardContext, RewardFn } from "./rubrics/reward-context.ts";
export { type AddOptions, Rubric, type RubricOptions } from "./rubrics/rubric.ts";
export { RubricGroup } from "./rubrics/rubric-group.ts";
export { type Tool, type ToolOptions, tool } from "./tools/tool.ts";

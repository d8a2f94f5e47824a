/**
 * The warm start: what the built-in model is shown before RL, so that it knows what the bash
 * harness asks of it. Each conversation is a scripted trace, exactly as the harness sends it to
 * the model (its instructions, the task, the bash tool's definition): a share of them run the
 * question's expression through bash and copy the result into the box; the rest box a number at
 * once, which a 148k-parameter model cannot compute. Fine-tuned on these (`vf sft`), the model
 * knows how to use the shell but mostly does not, so its greedy answer is wrong, while the
 * sampled rollouts that do run the command earn reward for RL to turn into the habit: the recipe
 * of the built-in model's tool-arithmetic phases (packages/engine/models/README.md).
 */
import { type ArithmeticProblem, answerText } from "@vf-env/tool-arithmetic";
import type { Messages } from "@vf-rl/core";

/** The bash harness's options the taskset is run with (`[env.agent.harness]` in its configs). */
export const HARNESS_OPTIONS: { systemPrompt: string; tools: "bash"[] } = {
  /** Short instructions: the model's context is 1024 tokens, and the tool definition is long. */
  systemPrompt: "Use the bash tool to run commands.",
  tools: ["bash"],
};

/** The bash tool as the bash agent (packages/agents' bash-agent.mjs) offers it. */
export const BASH_TOOL = {
  type: "function",
  function: {
    name: "bash",
    description:
      "Run a bash command in the working folder and get its output (stdout and stderr) and exit code. Each command runs in a fresh shell.",
    parameters: {
      type: "object",
      properties: { command: { type: "string", description: "The command, e.g. `ls -la` or `npm test`." } },
      required: ["command"],
    },
  },
} as const;

/** The command that computes a problem's value. */
export function commandFor(problem: ArithmeticProblem): string {
  return `echo $((${problem.expression}))`;
}

/** What the bash tool answers for the command (its output, then how it exited). */
export function toolResultFor(problem: ArithmeticProblem): string {
  return `${problem.answer}\n[exit code 0]`;
}

/** The conversation the bash agent starts from: its instructions merged into the task's system message. */
export function agentPrompt(prompt: Messages, instructions: string = HARNESS_OPTIONS.systemPrompt): Messages {
  const [first, ...rest] = prompt;
  if (first?.role === "system" && typeof first.content === "string") {
    return [{ role: "system", content: `${instructions}\n\n${first.content}` }, ...rest];
  }
  return [{ role: "system", content: instructions }, ...prompt];
}

/** A scripted trace that runs the command, as one SFT conversation (`{ messages, tools }`). */
export function callingConversation(prompt: Messages, problem: ArithmeticProblem, callId = "call_0") {
  return {
    messages: [
      ...agentPrompt(prompt),
      {
        role: "assistant" as const,
        content: "",
        tool_calls: [
          {
            id: callId,
            type: "function" as const,
            function: { name: "bash", arguments: JSON.stringify({ command: commandFor(problem) }) },
          },
        ],
      },
      { role: "tool" as const, tool_call_id: callId, content: toolResultFor(problem) },
      { role: "assistant" as const, content: answerText(problem.answer) },
    ],
    tools: [BASH_TOOL],
  };
}

/** A scripted trace that answers at once, as one SFT conversation. */
export function directConversation(prompt: Messages, problem: ArithmeticProblem) {
  return {
    messages: [...agentPrompt(prompt), { role: "assistant" as const, content: answerText(problem.answer) }],
    tools: [BASH_TOOL],
  };
}

// The shared rollout renderer on records made by hand: text is escaped, tool results are named
// after their calls, the heat map has a cell per token, and an agent trace shows its branches.
import { RolloutRecord } from "@vf-rl/core/results";
import { describe, expect, it } from "vitest";
import { rolloutHtml } from "./rollout-html.ts";

const toolTurn = {
  role: "assistant",
  content: "",
  tool_calls: [
    { id: "call_1", type: "function", function: { name: "calculator", arguments: '{"expression":"6*7"}' } },
  ],
};

const calculator = {
  type: "function",
  function: {
    name: "calculator",
    description: "Evaluates <expr>",
    parameters: { type: "object", properties: { expression: { type: "string" } } },
  },
};

function record(more: Record<string, unknown> = {}): RolloutRecord {
  return RolloutRecord.parse({
    example_id: 4,
    prompt: [{ role: "user", content: "What is 6*7? <script>alert(1)</script>" }],
    completion: [
      toolTurn,
      { role: "tool", tool_call_id: "call_1", content: "42" },
      { role: "assistant", content: "42" },
    ],
    reward: 0.5,
    metrics: { correct: 1, format: 0 },
    ...more,
  });
}

const count = (text: string, part: string) => text.split(part).length - 1;

describe("rolloutHtml", () => {
  it("escapes the messages' text and names a tool result after its call", () => {
    const page = rolloutHtml(record()).value;
    expect(page).not.toContain("<script>");
    expect(page).toContain("&#60;script&#62;alert(1)&#60;/script&#62;");
    expect(page).toContain('<code>calculator</code> <code class="small muted">call_1</code>');
    expect(page).toMatch(/tool result · <code>calculator<\/code>/);
    expect(page).toContain("&#34;expression&#34;: &#34;6*7&#34;");
    expect(page).toContain("<tr><th>correct</th><td>1</td></tr>");
    expect(rolloutHtml(record({ tool_defs: [calculator] })).value).toMatch(
      /1 tool offered<\/summary>\n<div class="tool"><code>calculator<\/code> <span class="small">Evaluates &#60;expr&#62;<\/span>/,
    );
  });

  it("lists the rollout's error and the reward functions that raised", () => {
    const page = rolloutHtml(
      record({
        error: { error: "ModelError", message: "the maximum context length is 2048 tokens" },
        scoring_errors: [{ function: "judge", error: { error: "TypeError", message: "x is undefined" } }],
      }),
    ).value;
    expect(page).toContain("<strong>ModelError</strong>: the maximum context length is 2048 tokens");
    expect(page).toContain("reward function <code>judge</code> raised (scored 0)");
  });

  it("draws one heat-map cell per sampled token, with the caller's token text or the id", () => {
    const tokens = {
      prompt_ids: [1, 2],
      completion_ids: [52, 50, 10],
      completion_logprobs: [-0.01, -2.5, -0.3],
    };
    const row = record({ trajectory: [{ finish_reason: "stop", is_truncated: false, tokens }] });
    const ids = rolloutHtml(row).value;
    expect(count(ids, 'class="tok"')).toBe(3);
    expect(ids).toContain('data-logprob="-2.5" title="id 50 · logprob -2.5000 · p 0.082">50</span>');
    const text = rolloutHtml(row, { tokenText: (id) => String.fromCharCode(id) }).value;
    expect(text).toContain(">4</span>");
    expect(text).toContain(">↵\n</span>");
    expect(rolloutHtml(record()).value).not.toContain("heatmap");
  });

  it("shows an agent trace's branches, the main one (the last reply's) open", () => {
    const user = { role: "user", content: "Fix the bug." };
    const trace = {
      calls: [
        { model: "m", node: 1, finishReason: "stop" },
        { model: "m", node: 2, finishReason: "stop" },
      ],
      nodes: [
        { parent: null, message: user },
        { parent: 0, message: { role: "assistant", content: "first try" }, sampled: true },
        { parent: 0, message: { role: "assistant", content: "second try" }, sampled: true },
      ],
      stop: "agent_completed",
      errors: [{ type: "TimeLimit", message: "the task's 2 s ran out" }],
      exitCode: null,
    };
    const page = rolloutHtml(record({ trace })).value;
    expect(count(page, '<details class="branch"')).toBe(2);
    expect(page).toContain('<details class="branch" id="branch-2" open>');
    expect(page).toContain("shares its first 1 message with the main branch");
    expect(page).toContain("killed (no exit code)");
    expect(page).toContain("<strong>TimeLimit</strong>: the task&#39;s 2 s ran out");
  });

  it("says why a trace cannot be read, and shows the row's conversation", () => {
    const page = rolloutHtml(
      record({ trace: { calls: [{ node: "x" }], nodes: [], stop: "done", exitCode: 0 } }),
    ).value;
    expect(page).toContain("<strong>trace unreadable</strong>");
    expect(page).toContain("<h3>Completion</h3>");
  });
});

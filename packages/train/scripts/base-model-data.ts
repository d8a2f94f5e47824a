/**
 * The conversations the shipped base model is trained on (train-base-model.ts has the recipe): the
 * bundled environments' own prompts with their reference completions, rendered as the model sees
 * them (with their tools), and three synthetic sources: short arithmetic in gsm8k's format,
 * "repeat exactly" copies, and tool-arithmetic answered with or without its calculator.
 */
import type { Environment } from "@vf-rl/core";
import { findEnvironment, loadEnvironmentById } from "@vf-rl/core/loading";
import { type ChatMessageInput, Rng, withToolsSection } from "@vf-rl/engine";

/** gsm8k's system prompt, so the arithmetic looks like its rows. */
const GSM8K_SYSTEM =
  "Solve the math problem. Think step by step, then give the final answer as a number inside \\boxed{}.";

/** Short arithmetic in gsm8k's format: a question, one line of working, then the boxed answer. */
export function arithmetic(count: number, seed: number): ChatMessageInput[][] {
  const rng = new Rng(seed, 1);
  const int = (lo: number, hi: number): number => lo + (rng.nextU32() % (hi - lo + 1));
  const names = ["Tom", "Ana", "Lee", "Mia", "Sam", "Ivy", "Max", "Zoe"];
  const things = ["apples", "books", "coins", "pens", "cards", "stamps"];
  const rows: ChatMessageInput[][] = [];
  for (let i = 0; i < count; i++) {
    const kind = int(0, 3);
    const a = int(2, 60);
    const b = int(2, kind === 2 ? 9 : 40);
    const name = names[int(0, names.length - 1)]!;
    const thing = things[int(0, things.length - 1)]!;
    let question: string;
    let working: string;
    let answer: number;
    if (kind === 0) {
      question =
        int(0, 1) === 0
          ? `What is ${a} + ${b}?`
          : `${name} has ${a} ${thing} and gets ${b} more. How many ${thing} does ${name} have?`;
      answer = a + b;
      working = `${a}+${b}=${answer}`;
    } else if (kind === 1) {
      const big = Math.max(a, b);
      const small = Math.min(a, b);
      question =
        int(0, 1) === 0
          ? `What is ${big} - ${small}?`
          : `${name} has ${big} ${thing} and gives away ${small}. How many ${thing} are left?`;
      answer = big - small;
      working = `${big}-${small}=${answer}`;
    } else if (kind === 2) {
      question =
        int(0, 1) === 0
          ? `What is ${a} * ${b}?`
          : `${name} buys ${b} boxes of ${a} ${thing}. How many ${thing} is that?`;
      answer = a * b;
      working = `${a}*${b}=${answer}`;
    } else {
      const c = int(2, 20);
      question = `What is ${a} + ${b} - ${c}?`;
      answer = a + b - c;
      working = `${a}+${b}=${a + b}\n${a + b}-${c}=${answer}`;
    }
    rows.push([
      { role: "system", content: GSM8K_SYSTEM },
      { role: "user", content: question },
      { role: "assistant", content: `${working}\nThe answer is \\boxed{${answer}}` },
    ]);
  }
  return rows;
}

/**
 * The reverse-text references with a share `rate` of the reversed characters swapped for another
 * character of the same passage (the tags and the rest of the conversation untouched).
 */
export function withReversalNoise(
  rows: ChatMessageInput[][],
  rate: number,
  seed: number,
): ChatMessageInput[][] {
  const rng = new Rng(seed, 2);
  return rows.map((row) =>
    row.map((message) => {
      if (message.role !== "assistant" || typeof message.content !== "string") return message;
      const content = message.content.replace(
        /(<reversed_text>\n)([\s\S]*?)(\n<\/reversed_text>)/,
        (_, open, text: string, close) => {
          const chars = [...text];
          const noisy = chars.map((c) => (rng.nextFloat() < rate ? chars[rng.nextU32() % chars.length]! : c));
          return `${open}${noisy.join("")}${close}`;
        },
      );
      return { ...message, content };
    }),
  );
}

/** An environment's loaded training rows (at most `count`), or null when it is not installed. */
async function trainingRows(id: string, count: number) {
  try {
    findEnvironment(id);
  } catch {
    console.log(`${id}: not installed, skipped`);
    return null;
  }
  const args = { numTrain: count }; // the bundled environments take numTrain; the rest stays at their defaults
  // biome-ignore lint/suspicious/noExplicitAny: environments of any state type
  const { env } = (await loadEnvironmentById(id, { args })) as { env: Environment<any> };
  const { inputs } = await env.inputs({ split: "train", numExamples: count });
  await env.teardown();
  return { env, inputs };
}

/**
 * An environment's training rows (at most `count`), each its prompt, with the environment's tools
 * described as the engine's server describes them, then its reference completion.
 */
export async function environmentRows(id: string, count: number): Promise<ChatMessageInput[][]> {
  const loaded = await trainingRows(id, count);
  if (loaded === null) return [];
  const tools = loaded.env.toolDefs();
  return loaded.inputs.map((input) => [
    ...withToolsSection(input.prompt as ChatMessageInput[], tools),
    ...(loaded.env.referenceCompletion(input) as ChatMessageInput[]),
  ]);
}

/**
 * tool-arithmetic's training rows from `skip` on, a share `callShare` of them answered as its
 * reference does (the calculator called with the question's expression, then its result boxed) and
 * the rest answered at once from the head (the reference's last turn alone), which a model this
 * small gets wrong: the base then knows how to use the tool but uses it only now and then, the
 * habit RL can teach.
 */
export async function toolArithmeticRows(options: {
  skip: number;
  count: number;
  callShare: number;
  seed: number;
}): Promise<ChatMessageInput[][]> {
  const loaded = await trainingRows("tool-arithmetic", options.skip + options.count);
  if (loaded === null) return [];
  const tools = loaded.env.toolDefs();
  const rng = new Rng(options.seed, 3);
  return loaded.inputs.slice(options.skip).map((input) => {
    const prompt = withToolsSection(input.prompt as ChatMessageInput[], tools);
    const reference = loaded.env.referenceCompletion(input) as ChatMessageInput[];
    // the reference's last turn is its boxed answer: alone, it is the answer from the head
    const completion = rng.nextFloat() < options.callShare ? reference : reference.slice(-1);
    return [...prompt, ...completion];
  });
}

/**
 * "Repeat exactly" conversations, one per passage given (reverse-text's user turns): half of them
 * the passage, half an expression in tool-arithmetic's shape. Copying text forward is what a
 * tool call's arguments and a boxed tool result need, and the only copying the other sources teach
 * runs backwards.
 */
export function repeatRows(passages: readonly string[], seed: number): ChatMessageInput[][] {
  const rng = new Rng(seed, 4);
  const int = (lo: number, hi: number): number => lo + (rng.nextU32() % (hi - lo + 1));
  return passages.map((passage) => {
    const expression = `${int(100, 999)} * ${int(11, 99)} ${int(0, 1) === 0 ? "+" : "-"} ${int(100, 999)}`;
    const text = int(0, 1) === 0 ? passage : expression;
    return [
      { role: "user", content: `Repeat exactly: ${text}` },
      { role: "assistant", content: text },
    ];
  });
}

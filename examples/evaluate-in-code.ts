// Evaluates the word-count environment from plain TypeScript, against any OpenAI-compatible server:
//   VF_BASE_URL=http://127.0.0.1:8000/v1 VF_MODEL=my-model npx tsx examples/evaluate-in-code.ts
import { evaluate, OpenAIModelClient } from "@vf-rl/core";
import { loadEnvironment } from "./word-count-env.ts";

const env = await loadEnvironment({ repeat: 2 });
const client = new OpenAIModelClient({
  baseUrl: process.env.VF_BASE_URL ?? "http://127.0.0.1:8000/v1",
  apiKey: process.env.VF_API_KEY ?? "EMPTY",
});
const result = await evaluate(env, {
  clients: client,
  model: process.env.VF_MODEL ?? "vf-builtin",
  numExamples: 4,
  rolloutsPerExample: 3,
  save: { outputDir: "outputs" },
});
console.log(`mean reward ${result.metadata.avg_reward.toFixed(3)} over ${result.records.length} rollouts`);
console.log(`saved to ${result.runDir}`);
await client.close();

/** What the env server's tests share: a scripted model whose answers take as long as a test needs. */
import { lastUserText, type ScriptedServer, startScriptedServer } from "@vf-rl/core/testing";

/**
 * A scripted model (token ids on, requests not kept) that answers a passage saying "slow" after a
 * minute, so its rollouts stay in flight to be cancelled or crashed under, one saying "pause" after
 * `pauseSeconds`, so it finishes late, and any other at once.
 */
export function startTimedModel(pauseSeconds: number): Promise<ScriptedServer> {
  return startScriptedServer({
    tokens: true,
    record: false,
    latencySeconds: (request) => {
      const text = lastUserText(request.messages);
      return text.includes("slow") ? 60 : text.includes("pause") ? pauseSeconds : 0;
    },
  });
}

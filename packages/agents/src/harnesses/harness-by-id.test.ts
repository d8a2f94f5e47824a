// A config's [env.agent.harness] keys besides id are the harness's options: the bash harness checks
// them, and a harness without options refuses any, each in one line.
import { UserError } from "@vf-rl/core/errors";
import { describe, expect, it } from "vitest";
import { harnessById } from "./index.ts";

describe("harnessById with options", () => {
  it("makes the bash harness with its options, and names a wrong one", () => {
    expect(harnessById("bash", { tools: ["bash"], systemPrompt: "Run it." }).id).toBe("bash");
    expect(() => harnessById("bash", { tools: ["python"] })).toThrow(
      /^the bash harness's options are wrong: tools\.0: /,
    );
    expect(() => harnessById("bash", { maxOutput: 10 })).toThrow(
      /bash harness's options are wrong: .*maxOutput/,
    );
  });

  it("refuses options for a harness that takes none, and an unknown harness", () => {
    expect(() => harnessById("chat", { tools: ["bash"] })).toThrow(
      new UserError("the chat harness takes no options (tools given): leave only its id"),
    );
    expect(() => harnessById("bsh")).toThrow(/there is no harness "bsh": use one of bash, chat/);
  });
});

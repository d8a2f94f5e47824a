// opencode, installed from npm by the harness's prepare, driven offline by the scripted model
// through the interception server over chat completions: its bash tool writes answer.txt.
import { describeCliHarness } from "../npm-cli/cli-harness.contract.ts";
import { opencodeHarness } from "./opencode-harness.ts";

describeCliHarness({
  harness: opencodeHarness(),
  sandboxUid: 64304,
  mcp: true,
  writeAnswer: {
    name: "bash",
    arguments: { command: "echo 42 > answer.txt", description: "Write the answer" },
  },
});

// Claude Code, installed from npm by the harness's prepare, driven offline by the scripted model
// through the interception server over Anthropic Messages: its Bash tool writes answer.txt.
import { describeCliHarness } from "../npm-cli/cli-harness.contract.ts";
import { claudeCodeHarness } from "./claude-code-harness.ts";

describeCliHarness({
  harness: claudeCodeHarness(),
  sandboxUid: 64301,
  mcp: true,
  writeAnswer: {
    name: "Bash",
    arguments: { command: "echo 42 > answer.txt", description: "Write the answer" },
  },
});

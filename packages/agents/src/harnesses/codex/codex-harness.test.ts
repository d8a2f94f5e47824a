// Codex, installed from npm by the harness's prepare, driven offline by the scripted model through
// the interception server over OpenAI Responses: its exec_command tool writes answer.txt.
import { describeCliHarness } from "../npm-cli/cli-harness.contract.ts";
import { codexHarness } from "./codex-harness.ts";

describeCliHarness({
  harness: codexHarness(),
  sandboxUid: 64302,
  mcp: true,
  mcpSkip:
    'Codex sends MCP tools as a Responses "namespace" tool (mcp__vf_0 holding echo, ...), which core\'s Responses dialect drops, so the model never sees them',
  localSkip:
    "the local sandbox refuses prctl(PR_SET_PDEATHSIG), which Codex calls for every command it runs (its exec_command tool fails with EPERM)",
  writeAnswer: { name: "exec_command", arguments: { cmd: "echo 42 > answer.txt" } },
});

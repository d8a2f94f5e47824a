// pi, installed from npm by the harness's prepare, driven offline by the scripted model through
// the interception server over chat completions: its bash tool writes answer.txt.
import { describeCliHarness } from "../npm-cli/cli-harness.contract.ts";
import { piHarness } from "./pi-harness.ts";

describeCliHarness({
  harness: piHarness(),
  sandboxUid: 64303,
  mcp: false,
  writeAnswer: { name: "bash", arguments: { command: "echo 42 > answer.txt" } },
});

/**
 * `vf view [DIR]`: browse saved runs (ours and verifiers') in the terminal or, with --web, in a
 * browser (pages served on loopback), or list them as JSON for scripts. Without a terminal it prints the run list as plain lines. view-action.ts does the
 * work, loaded when the command runs.
 */
import type { Command } from "commander";
import { portFlag } from "../../flag-values.ts";
import type { Output } from "../../terminal/output.ts";

export function registerView(program: Command, io: Output): void {
  program
    .command("view")
    .description("browse saved evaluation runs: runs → rollouts → one conversation or agent trace")
    .argument("[dir]", "folder holding evals/ (vf eval's -o), an evals folder, or one run", "outputs")
    .option("--json", "print every run with its summary as JSON, for scripts")
    .option("--web", "serve the runs as web pages on 127.0.0.1 and print the URL (Ctrl-C stops)")
    .option("--port <n>", "the port of --web (default: a free one)", portFlag("--port"))
    .addHelpText(
      "after",
      `
With --web: a runs list (tick two to diff them example by example), each run's rollouts with
filters and search, each rollout's conversation, tool calls, agent branches, metrics, errors and
token logprobs as a heat map, and one example of two runs side by side.
Keys: ↑/↓ (j/k) move · enter open · esc/b back · / search · space page · q quit
On a rollout: n/p next or previous rollout · tab/shift-tab ({/}) next or previous section or call
An agent's rollout shows its trace: each model call with its tool calls and their results, the
errors that ended it, and its branches (a subagent, a compaction, a retried call): [ and ] move
between them, starting on the main one.
Exit status: 1 when no run could be read (an empty folder included); with --json, also when any run
is unreadable: every run is still printed, an unreadable one with its "error". A run saved as running
whose process is gone (killed) shows as interrupted.
Examples:
  vf view                              runs under ./outputs
  vf view outputs/evals/gsm8k--gpt-4.1-mini/1a2b3c4d
  vf view --web                        the same in a browser, at the printed URL
  vf view --json outputs | jq '.[].avg_reward'`,
    )
    .action(async (dir: string, flags: { json?: boolean; web?: boolean; port?: number }) => {
      const { runView } = await import("./view-action.ts");
      await runView(dir, flags, io);
    });
}

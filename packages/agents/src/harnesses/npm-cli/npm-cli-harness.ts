/**
 * A harness for an agent CLI published on npm (Claude Code, Codex, pi, opencode): `prepare`
 * installs the pinned version into vf's cache once (cli-install.ts); `run` writes the CLI's config
 * files into the runtime's home, then starts it headless in the task's working folder, pointed at
 * the interception server, and waits until it exits or the rollout's signal ends it (the runtime
 * then kills everything it started). Each CLI's file says only how it is launched: its arguments,
 * its environment and its config files (`NpmCliSpec.launch`).
 *
 * The CLI runs from the cache folder's path: a local sandbox runtime must show that folder inside
 * (`localRuntime({ readOnlyPaths: [harness.installDir(cacheDir)] })`, readable by every user).
 */
import { contentText, type Messages } from "@vf-rl/core";
import type { AgentApi, Harness, HarnessContext, HarnessResult } from "@vf-rl/core/agents";
import { HarnessError, UserError } from "@vf-rl/core/errors";
import { cliInstallDir, installCli } from "./cli-install.ts";
import { writeHomeFiles } from "./home-files.ts";

/** How one rollout's CLI is started. */
export interface CliLaunch {
  /** The arguments after the program. */
  args: string[];
  /** Variables beside the runtime's own (the rollout's secret goes here, never in `args`). */
  env: Record<string, string>;
  /** Written to the CLI's stdin (the task's prompt, for CLIs that read it there). */
  stdin?: string;
  /** Files written before it starts, by path relative to the runtime's home (its config). */
  homeFiles?: Record<string, string>;
}

/** An agent CLI on npm, and how to launch it. */
export interface NpmCliSpec {
  /** The harness id, e.g. "claude-code"; also the cache folder's name. */
  id: string;
  /** The API it speaks to the interception server. */
  api: AgentApi;
  /** The npm package, e.g. "@anthropic-ai/claude-code". */
  package: string;
  /** The exact version installed and run. */
  version: string;
  /** The command the package installs (node_modules/.bin/<bin>). */
  bin: string;
  /** The arguments, environment, stdin and config files of one rollout. */
  launch(context: HarnessContext): CliLaunch;
}

/** A harness of an npm CLI; `installDir` says where `prepare` puts it. */
export interface NpmCliHarness extends Harness {
  readonly package: string;
  readonly version: string;
  /** The CLI's folder under `cacheDir` (what a local sandbox must show read-only). */
  installDir(cacheDir: string): string;
}

/** The characters of the CLI's output kept for the trace. */
const OUTPUT_KEPT = 8000;
/** The longest timer Node keeps (about 24.8 days): the rollout's signal, not this, ends the agent. */
const NO_TIMEOUT_MS = 2 ** 31 - 1;

/** A harness running `spec`'s CLI; see the file comment. */
export function npmCliHarness(spec: NpmCliSpec): NpmCliHarness {
  let bin: string | undefined;
  return {
    id: spec.id,
    api: spec.api,
    package: spec.package,
    version: spec.version,
    installDir: (cacheDir) => cliInstallDir({ cacheDir, name: spec.id, version: spec.version }),
    async prepare({ cacheDir, signal }) {
      const dir = await installCli({
        cacheDir,
        name: spec.id,
        package: spec.package,
        version: spec.version,
        signal,
      });
      bin = `${dir}/node_modules/.bin/${spec.bin}`;
    },
    async run(context: HarnessContext): Promise<HarnessResult> {
      if (bin === undefined) {
        throw new UserError(
          `the ${spec.id} harness is not prepared: await harness.prepare({ cacheDir }) once before its rollouts`,
        );
      }
      const { runtime, signal } = context;
      const launch = spec.launch(context);
      if (launch.homeFiles) await writeHomeFiles(runtime, launch.homeFiles, spec.id, signal);
      const result = await runtime.exec([bin, ...launch.args], {
        env: launch.env,
        ...(launch.stdin !== undefined ? { stdin: launch.stdin } : {}),
        signal,
        timeoutMs: NO_TIMEOUT_MS,
      });
      if (result.exitCode === 127 && /could not be started/.test(result.stderr)) {
        throw new HarnessError(
          `the ${spec.id} harness could not start ${bin} in its runtime (${result.stderr.trim()}): a local sandbox must show the CLI's folder (readOnlyPaths)`,
          spec.id,
        );
      }
      const output = `${result.stdout}${result.stderr}`;
      return { exitCode: result.exitCode, output: output.slice(-OUTPUT_KEPT) };
    },
  };
}

/** A task's conversation as one CLI prompt: its system text apart, the rest as the request. */
export function promptText(prompt: Messages): { system: string; request: string } {
  const system: string[] = [];
  const request: string[] = [];
  for (const message of prompt) {
    const text = contentText(message.content);
    if (message.role === "system") system.push(text);
    else if (message.role === "user") request.push(text);
    // An agent CLI takes one request: earlier turns of the conversation are quoted in it.
    else request.push(`[${message.role}]\n${text}`);
  }
  return { system: system.join("\n\n"), request: request.join("\n\n") };
}

/**
 * The vf command line: parses flags with commander, runs one command, and turns any failure into
 * one line of cause plus a hint (the stack only with -v). Returns the exit status.
 */
import { type Command, CommanderError } from "commander";
import { EXIT_USAGE, reportError } from "./cli-errors.ts";
import { buildProgram } from "./program.ts";
import { type Output, processOutput } from "./terminal/output.ts";

export async function main(argv: string[], io: Output = processOutput()): Promise<number> {
  let exitCode = 0;
  const program: Command = buildProgram(io, (code) => {
    exitCode = code;
  });
  const verbose = argv.includes("-v") || argv.includes("--verbose");
  try {
    await program.parseAsync(argv, { from: "user" });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander has printed its own message (help, version, unknown option).
      return error.exitCode === 0 ? 0 : EXIT_USAGE;
    }
    const command = argv.find((arg) => !arg.startsWith("-"));
    return reportError(error, { verbose, command, write: io.err, colour: io.colour.err });
  }
}

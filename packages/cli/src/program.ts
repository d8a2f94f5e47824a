/** The vf program: every command, registered on one commander instance. */
import { Command } from "commander";
import { registerDoctor } from "./commands/doctor/doctor-command.ts";
import { registerEnv } from "./commands/env/env-command.ts";
import { registerEval } from "./commands/eval/eval-command.ts";
import { registerEvalPush } from "./commands/eval/push/push-command.ts";
import { registerEvalRescore } from "./commands/eval/rescore/rescore-command.ts";
import { registerEvalValidate } from "./commands/eval/validate/validate-command.ts";
import { registerHub } from "./commands/hub/hub-command.ts";
import { registerInit } from "./commands/init/init-command.ts";
import { registerLogin } from "./commands/login/login-command.ts";
import { registerWhoami } from "./commands/login/whoami-command.ts";
import { registerPlot } from "./commands/plot/plot-command.ts";
import { registerServe } from "./commands/serve/serve-command.ts";
import { registerSetup } from "./commands/setup/setup-command.ts";
import { registerSft } from "./commands/sft/sft-command.ts";
import { registerTrain } from "./commands/train/train-command.ts";
import { registerTrainer } from "./commands/trainer/trainer-command.ts";
import { registerView } from "./commands/view/view-command.ts";
import type { Output } from "./terminal/output.ts";

export const VERSION = "0.1.0";

export function buildProgram(io: Output, setExit: (code: number) => void): Command {
  const program = new Command("vf")
    .description("vf: reinforcement-learning environments for language models")
    .version(VERSION, "--version")
    .exitOverride()
    // Options belong to the command they follow, so `vf eval push DIR --json` is push's --json, not eval's.
    .enablePositionalOptions()
    .showSuggestionAfterError(true)
    .configureOutput({
      writeOut: (text) => io.out(text.replace(/\n$/, "")),
      writeErr: (text) => io.err(text.replace(/\n$/, "")),
    })
    .addHelpText(
      "after",
      `
Start here:
  vf eval reverse-text          evaluate the built-in local model, offline
  vf init my-env                write a new environment package
  vf view                       browse saved runs`,
    );
  registerInit(program, io);
  const evalCommand = registerEval(program, io, setExit);
  registerEvalPush(evalCommand, io);
  registerEvalRescore(evalCommand, io);
  registerEvalValidate(evalCommand, io, setExit);
  registerView(program, io);
  registerSetup(program, io);
  registerServe(program, io);
  registerEnv(program, io);
  registerHub(program, io);
  registerLogin(program, io);
  registerWhoami(program, io);
  registerSft(program, io);
  registerTrain(program, io, setExit);
  registerTrainer(program, io);
  registerPlot(program, io);
  registerDoctor(program, io, setExit);
  for (const command of program.commands) command.exitOverride().configureOutput(program.configureOutput());
  return program;
}

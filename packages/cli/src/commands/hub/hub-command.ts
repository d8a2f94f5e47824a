/** `vf hub`: run an Environments Hub and administer it (serve, users, your keys). */
import type { Command } from "commander";
import type { Output } from "../../terminal/output.ts";
import { registerHubKeys } from "./hub-keys.ts";
import { registerHubServe } from "./hub-serve.ts";
import { registerHubUser } from "./hub-user.ts";

/** Registers `vf hub serve`, `vf hub user create` and `vf hub keys`. */
export function registerHub(program: Command, io: Output): void {
  const hub = program
    .command("hub")
    .description("run an Environments Hub (vf hub serve), add users, manage your keys")
    .addHelpText(
      "after",
      `
Examples:
  vf hub serve --data ./hub-data                a local Hub at http://127.0.0.1:8377
  vf hub user create ada --data ./hub-data      a user with a first key (Hub stopped)
  vf hub keys create ci --scope read            a new key for your account`,
    );
  registerHubServe(hub, io);
  registerHubUser(hub, io);
  registerHubKeys(hub, io);
}

/**
 * `vf hub user create NAME`: adds a Hub user with a first write key, printed this once. Straight in
 * the Hub's database by default (with the embedded database the Hub must be stopped, as it holds the
 * data folder), or with `--hub URL` through a running Hub's API, with an admin's key.
 */
import { resolve } from "node:path";
import { UserError } from "@vf-rl/core/errors";
import type { Command } from "commander";
import type { Output } from "../../terminal/output.ts";
import { vfCommand } from "../../vf-command.ts";
import { connectHub, hubUrlFlag } from "./hub-flags.ts";
import { defaultHubDataDir } from "./hub-serve.ts";

interface UserFlags {
  admin?: boolean;
  password?: string;
  data?: string;
  databaseUrl?: string;
  hub?: string;
  json?: boolean;
}

/** The new user's secrets, as printed. */
interface NewUser {
  user: string;
  is_admin: boolean;
  password: string;
  api_key: string;
}

/** Registers `vf hub user create` on the `vf hub` command. */
export function registerHubUser(hub: Command, io: Output): void {
  const user = hub.command("user").description("manage the Hub's users (admins)");
  user
    .command("create")
    .description("create a user with a first write key (shown once)")
    .argument("<name>", "user name: 2-39 lower-case letters, digits or '-'")
    .option("--admin", "make the user an admin (may create users)")
    .option("--password <password>", "password for the web pages (default: a random one, printed)")
    .option("--data <dir>", "the stopped Hub's data folder (default: $VF_HOME/hub)")
    .option("--database-url <url>", "the Hub's PostgreSQL server (default: DATABASE_URL)")
    .option("--hub <url>", "create it through this running Hub instead, with your admin key", hubUrlFlag)
    .option("--json", "print the user, password and key as JSON")
    .option("-v, --verbose", "show stack traces of failures")
    .addHelpText(
      "after",
      `
Examples:
  vf hub user create ada                        in ~/.vf/hub (stop vf hub serve first)
  vf hub user create ada --data ./hub-data --admin
  vf hub user create ada --hub http://127.0.0.1:8377   through a running Hub (vf login as an admin first)`,
    )
    .action(async (name: string, flags: UserFlags) => {
      const created = flags.hub ? await createThroughApi(name, flags) : await createInDatabase(name, flags);
      if (flags.json) {
        io.out(JSON.stringify(created));
        return;
      }
      io.out(
        `created user ${created.user}${created.is_admin ? " (admin)" : ""}; shown this once, save it now:`,
      );
      io.out(`  password  ${created.password}`);
      io.out(`  API key   ${created.api_key}`);
      io.err(`they log in with: ${vfCommand(`login --key${flags.hub ? ` --hub ${flags.hub}` : ""}`)}`);
    });
}

async function createInDatabase(name: string, flags: UserFlags): Promise<NewUser> {
  const { createHubUser, HubDataInUseError } = await import("@vf-rl/hub");
  const created = await createHubUser({
    dataDir: resolve(flags.data ?? defaultHubDataDir()),
    name,
    admin: Boolean(flags.admin),
    ...(flags.databaseUrl ? { databaseUrl: flags.databaseUrl } : {}),
    ...(flags.password ? { password: flags.password } : {}),
  }).catch((error: unknown) => {
    if (!(error instanceof HubDataInUseError)) throw error;
    // A running Hub holds its embedded database: the user is created through that Hub instead.
    const command = vfCommand(`hub user create ${name}${flags.admin ? " --admin" : ""} --hub URL`);
    throw new UserError(
      `the Hub data in ${error.dataDir} is in use by a running Hub (process ${error.pid}): create the user through it with ${command} (the URL vf hub serve printed; vf login there as an admin first), or stop that Hub and run this again`,
      { cause: error },
    );
  });
  return {
    user: created.user,
    is_admin: Boolean(flags.admin),
    password: created.password,
    api_key: created.apiKey,
  };
}

async function createThroughApi(name: string, flags: UserFlags): Promise<NewUser> {
  const client = await connectHub(flags);
  const created = await client.createUser({
    name,
    is_admin: Boolean(flags.admin),
    ...(flags.password ? { password: flags.password } : {}),
  });
  return {
    user: created.name,
    is_admin: created.is_admin,
    password: created.password,
    api_key: created.api_key,
  };
}

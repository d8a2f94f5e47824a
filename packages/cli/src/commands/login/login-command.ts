/**
 * `vf login` and `vf logout`: save (or forget) an API key for a Hub in the user's config file
 * (`$XDG_CONFIG_HOME/vf/config.json`, mode 0600). A key is obtained by approving the login on the
 * Hub's web page, or pasted with `--key`; either way it is checked with the Hub before it is saved.
 */
import type { Command } from "commander";
import type { Output } from "../../terminal/output.ts";
import { type HubFlags, loadHubClient, withHubFlags } from "../hub/hub-flags.ts";
import { readSecret } from "./read-secret.ts";

interface LoginFlags extends HubFlags {
  /** The key, or `true` for "read it from stdin". */
  key?: string | true;
  json?: boolean;
}

/** Registers `vf login` and `vf logout`. */
export function registerLogin(program: Command, io: Output): void {
  withHubFlags(
    program
      .command("login")
      .description("log in to a Hub: approve in the browser, or paste an API key with --key")
      .option("--key [key]", "log in with an API key; without a value it is read from stdin")
      .option("--json", "print the login as JSON"),
  )
    .addHelpText(
      "after",
      `
The key is saved in $XDG_CONFIG_HOME/vf/config.json (mode 0600); VF_API_KEY overrides it.

Examples:
  vf login                                     approve on the Hub's page (prints the URL and a code)
  vf login --key                               paste a key (it is not echoed)
  echo "$KEY" | vf login --key --hub https://hub.example.com
  vf login --hub http://127.0.0.1:8377          a local Hub (vf hub serve)`,
    )
    .action(async (flags: LoginFlags) => {
      const hub = await loadHubClient();
      const url = flags.hub ?? hub.resolveHubTarget().url;
      let result: Awaited<ReturnType<typeof hub.loginWithKey>>;
      if (flags.key !== undefined) {
        const key = flags.key === true ? await readSecret(`API key for ${url}: `) : flags.key;
        result = await hub.loginWithKey({ url, apiKey: key });
      } else {
        result = await hub.loginWithBrowser({
          url,
          onCode: (start) => {
            io.err(`open ${start.verification_url}`);
            io.err(`and approve the login; the page shows the code ${start.user_code}`);
            io.err("waiting for approval (Ctrl-C to cancel)...");
          },
        });
      }
      if (flags.json) {
        io.out(JSON.stringify(result));
        return;
      }
      io.out(`logged in to ${result.url} as ${result.user} (key ${result.keyPrefix})`);
      io.err(`saved in ${result.configPath}`);
      if (process.env.VF_API_KEY) io.err("note: VF_API_KEY is set in this shell and is used instead");
    });

  program
    .command("logout")
    .description("forget the saved API key (the Hub URL is kept)")
    .option("-v, --verbose", "show stack traces of failures")
    .action(async () => {
      const hub = await loadHubClient();
      const removed = hub.logout();
      const path = hub.hubConfigPath();
      io.out(
        removed ? `logged out: the key was removed from ${path}` : `not logged in: ${path} holds no key`,
      );
      if (process.env.VF_API_KEY) io.err("note: VF_API_KEY is still set in this shell and is used by vf");
    });
}

/**
 * opencode (`opencode-ai`, SST's agent CLI; the npm package's platform dependency carries its
 * binary, so nothing is downloaded at run time) as a harness. It speaks chat completions to the
 * interception server as a custom provider given in `OPENCODE_CONFIG_CONTENT` (the
 * `@ai-sdk/openai-compatible` provider it bundles, the base URL, the rollout's secret read from a
 * variable), with the rollout's model as the provider's one model, for the main loop and for the
 * small calls (titles) alike. It runs headless (`opencode run`) without external plugins, with
 * every permission granted (`--auto`; the runtime confines it). Auto-update, sharing, the
 * models.dev catalog, LSP downloads and default plugins are off; and since opencode installs its
 * plugin SDK from npm into its config folder at every start unless a lockfile there already names
 * it, the harness writes that lockfile: its only connection is to the interception server.
 *
 * @example
 * const harness = opencodeHarness();
 * await harness.prepare({ cacheDir: join(homedir(), ".cache", "vf", "harnesses") });
 */
import type { HarnessContext } from "@vf-rl/core/agents";
import { type CliLaunch, type NpmCliHarness, npmCliHarness, promptText } from "../npm-cli/npm-cli-harness.ts";

/** The opencode release vf runs (`npm view opencode-ai version`, 2026-11-27). */
export const OPENCODE_VERSION = "1.18.33";

/** Options of `opencodeHarness`. */
export interface OpencodeHarnessOptions {
  /** An exact release to run instead of `OPENCODE_VERSION` (its config may differ). */
  version?: string;
}

/** The variable opencode reads the rollout's secret from. */
const KEY_VARIABLE = "VF_API_KEY";

/** The opencode harness; see the file comment. */
export function opencodeHarness(options: OpencodeHarnessOptions = {}): NpmCliHarness {
  const version = options.version ?? OPENCODE_VERSION;
  return npmCliHarness({
    id: "opencode",
    api: "openai_chat_completions",
    package: "opencode-ai",
    version,
    bin: "opencode",
    launch: (context) => opencodeLaunch(context, version),
  });
}

function opencodeLaunch({ task, model, mcpUrls }: HarnessContext, version: string): CliLaunch {
  const { system, request } = promptText(task.prompt);
  const config = {
    $schema: "https://opencode.ai/config.json",
    model: `vf/${model.name}`,
    small_model: `vf/${model.name}`,
    autoupdate: false,
    share: "disabled",
    provider: {
      vf: {
        npm: "@ai-sdk/openai-compatible",
        name: "vf interception server",
        options: { baseURL: model.baseUrl, apiKey: `{env:${KEY_VARIABLE}}` },
        models: { [model.name]: { name: model.name } },
      },
    },
    mcp: Object.fromEntries(mcpUrls.map((url, i) => [`vf-${i}`, { type: "remote", url, enabled: true }])),
  };
  // opencode run takes no system prompt: the task's comes first in the message. The message is one
  // argument after "--", so text that looks like a flag stays text.
  const message = system === "" ? request : `${system}\n\n${request}`;
  return {
    args: ["run", "--pure", "--auto", "--model", `vf/${model.name}`, "--", message],
    env: {
      [KEY_VARIABLE]: model.apiKey,
      OPENCODE_CONFIG_CONTENT: JSON.stringify(config),
      OPENCODE_DISABLE_AUTOUPDATE: "1",
      OPENCODE_DISABLE_SHARE: "1",
      OPENCODE_DISABLE_MODELS_FETCH: "1",
      OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
      OPENCODE_DISABLE_DEFAULT_PLUGINS: "1",
    },
    homeFiles: {
      // What a finished install of the plugin SDK leaves: opencode then does not run npm at start.
      ".config/opencode/node_modules/.vf-keep": "",
      ".config/opencode/package-lock.json": `${JSON.stringify({
        name: "opencode",
        lockfileVersion: 3,
        packages: { "": { dependencies: { "@opencode-ai/plugin": version } } },
      })}\n`,
    },
  };
}

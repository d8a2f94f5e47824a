/**
 * `-p/--provider`: the providers of core's model route (@vf-rl/core/providers, as verifiers' `-p`
 * names them) as a flag and as help lines. `builtin` is vf's own: the built-in local model (or, with
 * -m, a checkpoint folder of the engine), served in this process.
 */
import { type EndpointProvider, isProviderName, PROVIDERS, type ProviderName } from "@vf-rl/core/providers";
import { UsageError } from "../../cli-errors.ts";

/** Parses `-p`, naming the providers when the value is none of them. */
export function providerFlag(value: string): ProviderName {
  if (isProviderName(value)) return value;
  throw new UsageError(
    `-p/--provider "${value}" is not a provider: use one of ${Object.keys(PROVIDERS).join(", ")}`,
  );
}

/** The providers as help lines: name, URL, key variable and client type. */
export function providersHelp(): string {
  return Object.entries(PROVIDERS as Record<string, EndpointProvider | null>)
    .map(([name, provider]) => {
      if (provider === null) {
        return `  ${name.padEnd(12)}vf's built-in model served locally (the default without -m), or -m <checkpoint folder>`;
      }
      const key = provider.keyOptional ? `${provider.apiKeyVar} if set` : provider.apiKeyVar;
      const type = provider.type === "openai_chat_completions" ? "" : `  ${provider.type}`;
      return `  ${name.padEnd(12)}${provider.baseUrl.padEnd(38)}${key}${type}`;
    })
    .join("\n");
}

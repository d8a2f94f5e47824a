/**
 * `@anthropic-ai/sdk`, an optional peer of core: loaded the first time a client of Anthropic's
 * Messages API is used, so that an install which never calls Anthropic goes without it.
 */
import { importOptional } from "../optional-package.ts";

type AnthropicModule = typeof import("@anthropic-ai/sdk");

let loaded: AnthropicModule | undefined;

/** The SDK, imported once; `MissingPackageError` with its install line when it is not installed. */
export async function loadAnthropicSdk(): Promise<AnthropicModule> {
  loaded ??= await importOptional({
    name: "@anthropic-ai/sdk",
    neededBy: "Anthropic's Messages API (anthropic_messages)",
    load: () => import("@anthropic-ai/sdk"),
  });
  return loaded;
}

/** The SDK if a client has loaded it: an error can be one of its classes only then. */
export function loadedAnthropicSdk(): AnthropicModule | undefined {
  return loaded;
}

/**
 * @vf-rl/core/providers: where models are served, by name (verifiers' `-p`), for hosts that list
 * or parse them at start-up: it loads nothing else. Resolving a route to a model is
 * @vf-rl/core/client's `resolveRoute`.
 */
export { type EndpointProvider, isProviderName, PROVIDERS, type ProviderName } from "./providers.ts";

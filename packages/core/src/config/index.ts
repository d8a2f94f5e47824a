/**
 * @vf-rl/core/config: messages for configs and data that do not parse (closest matches, zod issues),
 * overrides of config keys, and the schema of a server's URL.
 */
export { issueLines, issuePath } from "../schema-issues.ts";
export { closestMatch } from "./closest-match.ts";
export { describeConfigIssues } from "./config-issues.ts";
export { applyOverrides, type ConfigOverride, parseOverrides } from "./config-overrides.ts";
export { HttpUrl } from "./http-url.ts";

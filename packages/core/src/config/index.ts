/** @vf-rl/core/config: messages for configs and data that do not parse (closest matches, zod issues). */
export { issueLines, issuePath } from "../schema-issues.ts";
export { closestMatch } from "./closest-match.ts";
export { describeConfigIssues } from "./config-issues.ts";
export { applyOverrides, type ConfigOverride, parseOverrides } from "./config-overrides.ts";

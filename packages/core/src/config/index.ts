/** @vf-rl/core/config: messages for configs that do not parse (closest matches, zod issues). */
export { closestMatch } from "./closest-match.ts";
export { describeConfigIssues } from "./config-issues.ts";

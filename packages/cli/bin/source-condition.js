// A module-resolution hook for vf's own repository only: adds the "vf-source" export condition, so
// `@vf-rl/*` imports resolve to the packages' TypeScript sources rather than their (unbuilt) dist/.
// `node --conditions=vf-source` does the same for a script started by hand.
export async function resolve(specifier, context, nextResolve) {
  if (context.conditions.includes("vf-source")) return nextResolve(specifier, context);
  return nextResolve(specifier, { ...context, conditions: [...context.conditions, "vf-source"] });
}

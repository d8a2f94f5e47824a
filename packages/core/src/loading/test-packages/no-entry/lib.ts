// An environment package that forgot to export loadEnvironment.
export const somethingElse = 1;

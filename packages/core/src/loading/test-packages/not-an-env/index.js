// Built against something other than @vf-rl/core: its "environment" is a look-alike object.
class SingleTurnEnv {
  async inputs() {
    return { inputs: [], warnings: [] };
  }
}
export const loadEnvironment = async () => new SingleTurnEnv();

/**
 * Runs once before vf's test files: builds every package whose sources changed since its last build
 * (scripts/build.mjs; about 9 s from nothing, nothing to do after) and has every `vf` the tests start
 * run that built JavaScript, as an installed vf does (VF_FROM_BUILD, read by packages/cli/bin/vf.js).
 * From sources each start compiles them first, about 0.8 s more a process, and the command-line
 * tests start vf many times each. Test files themselves still import the TypeScript sources.
 */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const BUILD = fileURLToPath(new URL("./build.mjs", import.meta.url));

export default function setup(): void {
  try {
    execFileSync(process.execPath, [BUILD], { stdio: "ignore" });
  } catch {
    // Sources that do not compile yet (work in progress) must not stop every test: vf then runs
    // from its sources, slower, and `npm run check` names the errors.
    process.stderr.write(
      "node scripts/build.mjs failed: the tests run vf from its sources (npm run check names the errors)\n",
    );
    return;
  }
  process.env.VF_FROM_BUILD = "1";
}

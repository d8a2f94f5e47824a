import { expect, it } from "vitest";
import { runVf } from "./run-vf.ts";

it("kills a vf that is still running after timeoutSeconds", async () => {
  // vf trainer serve runs until Ctrl-C: only the timeout ends it.
  const run = await runVf(["trainer", "serve", "--port", "0"], {
    timeoutSeconds: 2,
  });
  expect(run.signal).toBe("SIGKILL");
  expect(run.code).toBeNull();
}, 60_000);

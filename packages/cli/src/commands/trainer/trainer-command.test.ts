import { createServer } from "node:net";
import { runVf } from "@vf-rl/test-support";
import { describe, expect, it } from "vitest";

describe("vf trainer serve", () => {
  it("refuses a host that is not this machine's in one line, and exits", async () => {
    // 192.0.2.1 is reserved for documentation: no machine has it.
    const run = await runVf(["trainer", "serve", "--host", "192.0.2.1", "--port", "0"], {
      timeoutSeconds: 60,
    });
    expect(run.signal).toBeNull();
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      "error: cannot listen on 192.0.2.1: pass --host with an address of this machine\n",
    );
  }, 60_000);

  it("refuses a port in use, naming the flag that fixes it", async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const { port } = taken.address() as { port: number };
    try {
      const run = await runVf(["trainer", "serve", "--port", String(port)], { timeoutSeconds: 60 });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`error: port ${port} is already in use: pass --port with a free port`);
    } finally {
      taken.close();
    }
  }, 60_000);
});

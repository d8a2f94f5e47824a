// The container runtime against a real engine, where one answers (`docker info` or `podman info`):
// the Runtime contract, and its network. Skipped, with the engine's own words, where none runs.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { SandboxError } from "@vf-rl/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeRuntimeContract, taskWith } from "../runtime.contract.ts";
import { containerRuntime, findContainerEngine } from "./container-runtime.ts";

const found = await findContainerEngine();
const skip = found.engine === null ? `no container engine answers here (${found.reason})` : undefined;

describeRuntimeContract({
  name: "container",
  factory: ({ tempDir, maxOutputBytes }) => containerRuntime({ tempDir, maxOutputBytes }),
  skip,
});

describe.skipIf(skip !== undefined)(
  `the container runtime's network${skip ? ` (skipped: ${skip})` : ""}`,
  () => {
    let interception: Server;
    let port: number;
    beforeAll(async () => {
      interception = createServer((_request, response) => response.end("interception"));
      await new Promise<void>((resolve) => interception.listen(0, "127.0.0.1", resolve));
      port = (interception.address() as AddressInfo).port;
    });
    afterAll(() => interception.close());

    it("reaches the interception server at its URL, and nothing else", async () => {
      const runtime = await containerRuntime().create(taskWith(), {
        interceptionUrl: `http://127.0.0.1:${port}/v1`,
      });
      try {
        const script = `for (const url of process.argv.slice(1)) await fetch(url).then((r) => r.text()).then(console.log, (e) => console.log(e.cause?.code));`;
        const result = await runtime.exec([
          "node",
          "--input-type=module",
          "-e",
          script,
          `http://127.0.0.1:${port}/v1`,
          "http://1.1.1.1/",
        ]);
        expect(result.stdout).toBe("interception\nENETUNREACH\n");
      } finally {
        await runtime.close();
      }
    });
  },
);

describe.skipIf(skip === undefined)("the container runtime without an engine", () => {
  it("refuses to create a runtime, saying what the engine said and what to do", async () => {
    const error = await containerRuntime()
      .create(taskWith(), { interceptionUrl: "http://127.0.0.1:9/v1" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SandboxError);
    expect((error as Error).message).toMatch(
      /^the container runtime found no container engine \(docker info: .*\): start Docker or Podman, or use the local runtime$/,
    );
  });
});

/**
 * Which API keys a run can make the server send. A run names its endpoint (`base_url`) and the
 * variable holding its key (`api_key_var`), and anyone who reaches the socket can send one, so the
 * server reads only the variables its operator named (`keyVars`, `vf env serve --key-var`): a run
 * naming HOME, PATH or any other secret of the server's environment calls the URL it gave with the
 * key "EMPTY", and the reply says how to allow the variable. A capture server on loopback (core's
 * scripted model server, which keeps every request's headers) stands for the URL a run names.
 */
import { type ScriptedServer, startScriptedServer } from "@vf-rl/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EnvClient } from "../src/client/env-client.ts";
import { type EnvServer, startEnvServer } from "../src/server/env-server.ts";

const NAMED = "VF_TEST_NAMED_KEY";
const UNNAMED = "VF_TEST_UNNAMED_SECRET";

let capture: ScriptedServer;
let guarded: ScriptedServer;
let server: EnvServer;
let client: EnvClient;

beforeAll(async () => {
  // The workers inherit the server's environment: one key the operator allows, one secret it does not.
  process.env[NAMED] = "named-key-value";
  process.env[UNNAMED] = "unnamed-secret-value";
  capture = await startScriptedServer();
  // An endpoint that takes only the unnamed secret as its key.
  guarded = await startScriptedServer({ apiKey: "unnamed-secret-value" });
  server = await startEnvServer({ envId: "reverse-text", address: "tcp://127.0.0.1:0", keyVars: [NAMED] });
  client = new EnvClient(server.address);
  await server.ready;
}, 60_000);

afterAll(async () => {
  client?.close();
  await server?.close();
  await capture?.close();
  await guarded?.close();
  delete process.env[NAMED];
  delete process.env[UNNAMED];
});

const task = { idx: 0, prompt: "abc def" };

/** The Authorization header the capture server received for a v1 run naming `apiKeyVar`. */
async function keySentFor(apiKeyVar: string): Promise<string | undefined> {
  const before = capture.headers.length;
  const episode = await client.run({
    taskData: task,
    client: { base_url: capture.url, api_key_var: apiKeyVar },
    model: "scripted",
  });
  expect(episode.ok).toBe(true);
  expect(capture.headers).toHaveLength(before + 1);
  return capture.headers[before]!.authorization;
}

describe("the keys an env server sends to the endpoints runs name", () => {
  it("sends a variable the operator named", async () => {
    expect(await keySentFor(NAMED)).toBe("Bearer named-key-value");
  });

  it("sends no other variable of its environment: HOME, PATH and an unnamed secret go out as EMPTY", async () => {
    for (const name of ["HOME", "PATH", UNNAMED]) expect(await keySentFor(name)).toBe("Bearer EMPTY");
    const everything = JSON.stringify(capture.headers);
    expect(everything).not.toContain("unnamed-secret-value");
    expect(everything).not.toContain(process.env.PATH);
    expect(everything).not.toContain(`Bearer ${process.env.HOME}`);
  });

  it("nor through a v0 run_group's client config", async () => {
    const before = capture.headers.length;
    await client.runGroup({
      inputs: [{ prompt: [{ role: "user", content: "abc" }], example_id: 0 }],
      clientConfig: { api_base_url: capture.url, api_key_var: UNNAMED },
      model: "scripted",
    });
    expect(capture.headers.slice(before).map((h) => h.authorization)).toEqual(["Bearer EMPTY"]);
  });

  it("calls a local endpoint that needs no key, whatever variable the run names, as before", async () => {
    expect(await keySentFor("VLLM_API_KEY")).toBe("Bearer EMPTY");
    expect(await keySentFor("")).toBe("Bearer EMPTY");
  });

  it("says in the run's error which variable it did not send and how to allow it, when the endpoint wants a key", async () => {
    const episode = await client.run({
      taskData: task,
      client: { base_url: guarded.url, api_key_var: UNNAMED },
      model: "scripted",
    });
    expect(episode.ok).toBe(false);
    const message = episode.traces[0]!.errors.map((e) => e.message).join("\n");
    expect(message).toContain(
      `${UNNAMED}, which this env server does not send (start it with --key-var ${UNNAMED} to allow it)`,
    );
    expect(message).not.toContain("unnamed-secret-value");
  });
});

import { constants, generateKeyPairSync, privateDecrypt } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestHub, jsonOf, type TestHub } from "../testing/test-hub.ts";
import { decideDeviceLogin, pollDeviceLogin, startDeviceLogin } from "./device-login.ts";

let hub: TestHub;
let adaId: number;
beforeAll(async () => {
  hub = await createTestHub();
  await hub.addUser("ada");
  adaId = (await hub.context.db.query<{ id: number }>("select id from users where name = 'ada'"))[0]!.id;
});
afterAll(() => hub.close());

const keyPair = () => generateKeyPairSync("rsa", { modulusLength: 2048 });
const pem = (key: ReturnType<typeof keyPair>["publicKey"]) =>
  key.export({ type: "spki", format: "pem" }).toString();

describe("the browser login of vf login", () => {
  it("hands an approved key over once, encrypted to the CLI's public key", async () => {
    const { publicKey, privateKey } = keyPair();
    const start = await startDeviceLogin(hub.context.db, {
      clientName: "vf on laptop",
      publicKey: pem(publicKey),
      origin: "http://hub.test",
    });
    expect(start.user_code).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    expect(start.verification_url).toBe(`http://hub.test/login/device?code=${start.user_code}`);
    expect(await pollDeviceLogin(hub.context.db, start.device_code)).toEqual({ status: "pending" });
    await decideDeviceLogin(hub.context.db, start.user_code.toLowerCase(), adaId, true);
    const stored = await hub.context.db.query<{ encrypted_key: string }>(
      "select encrypted_key from device_logins",
    );
    expect(stored[0]!.encrypted_key).not.toMatch(/vf_/);
    const poll = await pollDeviceLogin(hub.context.db, start.device_code);
    if (poll.status !== "approved") throw new Error(`expected approval, got ${poll.status}`);
    const key = privateDecrypt(
      { key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: "sha256" },
      Buffer.from(poll.encrypted_key, "base64"),
    ).toString();
    const me = await jsonOf(await hub.call("GET", "/api/v1/me", { key }));
    expect(me.data).toMatchObject({
      user: { name: "ada" },
      key: { name: "vf login: vf on laptop", scope: "write" },
    });
    await expect(pollDeviceLogin(hub.context.db, start.device_code)).rejects.toMatchObject({
      code: "not_found",
    });
  });

  it("tells the CLI when the user denies, and refuses unknown codes and bad keys", async () => {
    const start = await startDeviceLogin(hub.context.db, {
      clientName: "vf on ci",
      publicKey: pem(keyPair().publicKey),
      origin: "http://hub.test",
    });
    await decideDeviceLogin(hub.context.db, start.user_code, adaId, false);
    expect(await pollDeviceLogin(hub.context.db, start.device_code)).toEqual({ status: "denied" });
    await expect(decideDeviceLogin(hub.context.db, "AAAA-AAAA", adaId, true)).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(pollDeviceLogin(hub.context.db, "made-up")).rejects.toMatchObject({ code: "not_found" });
    const bad = await hub.call("POST", "/api/v1/auth/device", {
      json: { client_name: "x", public_key: "-".repeat(120) },
    });
    expect((await jsonOf(bad)).error).toMatchObject({
      code: "validation_failed",
      details: { field: "public_key" },
    });
  });
});

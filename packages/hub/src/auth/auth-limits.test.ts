/**
 * Rate limits that stop guessing without locking out anyone's valid credential: invalid keys from an
 * address do not block valid keys from it, wrong passwords from many addresses do not lock a user
 * out, and a trusted proxy header (only when configured) tells clients behind one proxy apart.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestHub, type TestHub } from "../testing/test-hub.ts";
import { AuthLimits } from "./auth-limits.ts";

// Opening an in-memory database and hashing passwords take seconds of CPU on a loaded 2-core machine.
vi.setConfig({ hookTimeout: 120_000, testTimeout: 120_000 });

let hub: TestHub;
let proxied: TestHub;
let adaKey: string;
beforeAll(async () => {
  hub = await createTestHub();
  adaKey = await hub.addUser("ada");
  await hub.addUser("bob");
  proxied = await createTestHub({ trustedProxyHeader: "x-forwarded-for" });
  await proxied.addUser("bob");
});
afterAll(async () => {
  await hub.close();
  await proxied.close();
});

/** A request from the socket address `from` (what @hono/node-server hands the app). */
function from(target: TestHub, address: string, path: string, init: RequestInit = {}) {
  return target.app.request(`http://hub.test${path}`, init, {
    incoming: { socket: { remoteAddress: address } },
  });
}

const whoami = (target: TestHub, address: string, key: string) =>
  from(target, address, "/api/v1/me", { headers: { authorization: `Bearer ${key}` } });

const signIn = (target: TestHub, address: string, password: string, headers: Record<string, string> = {}) =>
  from(target, address, "/login", {
    method: "POST",
    body: new URLSearchParams({ name: "bob", password, next: "/" }),
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
  });

const fakeKey = (i: number) => `vf_guess${String(i).padStart(3, "0")}_${"x".repeat(43)}`;

describe("authentication limits", () => {
  it("keeps a valid key working from an address that sent many invalid keys", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) statuses.push((await whoami(hub, "10.0.0.1", fakeKey(i))).status);
    expect(statuses.slice(0, 29).every((s) => s === 401)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    expect((await whoami(hub, "10.0.0.1", adaKey)).status).toBe(200);
    // Another address behind no proxy is its own bucket.
    expect((await whoami(hub, "10.0.0.2", fakeKey(99))).status).toBe(401);
  });

  it("does not lock a user out for wrong passwords sent from other addresses", async () => {
    for (let i = 1; i <= 5; i++) expect((await signIn(hub, `10.1.0.${i}`, "wrong")).status).toBe(401);
    for (let i = 0; i < 5; i++) expect((await signIn(hub, "10.1.0.9", "wrong")).status).toBe(401);
    // The address that failed five times is locked for this user, even with the right password ...
    expect((await signIn(hub, "10.1.0.9", "pw-bob")).status).toBe(429);
    // ... and the user, from anywhere else, signs in.
    expect((await signIn(hub, "10.1.0.1", "pw-bob")).status).toBe(303);
    expect((await signIn(hub, "10.1.0.100", "pw-bob")).status).toBe(303);
  });

  it("limits an address spraying many users in a separate, more generous bucket", () => {
    const limits = new AuthLimits({ signInPerUserAddress: 5, signInPerAddress: 50 });
    for (let i = 0; i < 49; i++) limits.signInFailed(`user${i}`, "10.2.0.1");
    expect(limits.signInWait("someone", "10.2.0.1")).toBe(0);
    limits.signInFailed("user49", "10.2.0.1");
    expect(limits.signInWait("someone", "10.2.0.1")).toBeGreaterThan(0);
    expect(limits.signInWait("someone", "10.2.0.2")).toBe(0);
  });

  it("tells clients behind a configured proxy apart by its header's last entry", async () => {
    // All through one proxy at 10.9.9.9; the client prepends a spoofed entry, the proxy appends the real one.
    for (let i = 0; i < 5; i++) {
      const headers = { "x-forwarded-for": `1.2.3.4, 198.51.100.${i}` };
      expect((await signIn(proxied, "10.9.9.9", "wrong", headers)).status).toBe(401);
    }
    // The socket address is the same for all, yet each client has its own count: four more for one.
    const locked = { "x-forwarded-for": "198.51.100.0" };
    for (let i = 0; i < 4; i++) expect((await signIn(proxied, "10.9.9.9", "wrong", locked)).status).toBe(401);
    expect((await signIn(proxied, "10.9.9.9", "pw-bob", locked)).status).toBe(429);
    const other = { "x-forwarded-for": "1.2.3.4, 198.51.100.7" };
    expect((await signIn(proxied, "10.9.9.9", "pw-bob", other)).status).toBe(303);
  });

  it("ignores forwarding headers unless a trusted proxy header is configured", async () => {
    for (let i = 0; i < 5; i++) {
      const spoofed = { "x-forwarded-for": `203.0.113.${i}` };
      expect((await signIn(hub, "10.3.0.1", "wrong", spoofed)).status).toBe(401);
    }
    const fresh = { "x-forwarded-for": "203.0.113.200" };
    expect((await signIn(hub, "10.3.0.1", "pw-bob", fresh)).status).toBe(429);
  });
});

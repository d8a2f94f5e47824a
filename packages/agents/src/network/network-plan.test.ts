import { UserError } from "@vf-rl/core";
import { describe, expect, it } from "vitest";
import { hostsFile, networkPlan } from "./network-plan.ts";

const policy = (allow: string[], block: string[] = []) => ({ allow, block });

describe("networkPlan", () => {
  it("always leads to the interception server, at the address and port of its URL", () => {
    expect(networkPlan("http://127.0.0.1:8123/v1", policy([]))).toEqual({
      targets: [{ host: "127.0.0.1", port: 8123 }],
      listeners: [{ address: "127.0.0.1", port: 8123, target: 0 }],
      addresses: [],
      names: [],
    });
    expect(networkPlan("http://localhost/v1", policy([], ["localhost"])).listeners).toEqual([
      { address: "127.0.0.1", port: 80, target: 0 },
      { address: "::1", port: 80, target: 0 },
    ]);
    expect(networkPlan("https://[::1]:9000", policy([])).targets).toEqual([{ host: "::1", port: 9000 }]);
  });

  it("opens a bare host's ports 80 and 443, a host:port's one, minus what block names", () => {
    const plan = networkPlan(
      "http://127.0.0.1:8123",
      policy(
        ["api.example.com", "files.example.com:8080", "10.0.0.5:5432", "[fd00::1]:80", "db.internal:5432"],
        ["api.example.com:80", "db.internal"],
      ),
    );
    expect(plan.targets).toEqual([
      { host: "127.0.0.1", port: 8123 },
      { host: "api.example.com", port: 443 },
      { host: "files.example.com", port: 8080 },
      { host: "10.0.0.5", port: 5432 },
      { host: "fd00::1", port: 80 },
    ]);
    expect(plan.listeners).toEqual([
      { address: "127.0.0.1", port: 8123, target: 0 },
      { address: "127.77.0.2", port: 443, target: 1 },
      { address: "127.77.0.3", port: 8080, target: 2 },
      { address: "10.0.0.5", port: 5432, target: 3 },
      { address: "fd00::1", port: 80, target: 4 },
    ]);
    expect(plan.addresses).toEqual(["10.0.0.5", "fd00::1"]);
    expect(hostsFile(plan)).toBe(
      "127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n127.0.1.1\tsandbox\n127.77.0.2\tapi.example.com\n127.77.0.3\tfiles.example.com\n",
    );
  });

  it("refuses wildcards, bad names and ports, and a URL that is not http(s)", () => {
    const refusal = (run: () => unknown) => {
      expect(run).toThrow(UserError);
      try {
        run();
      } catch (error) {
        return (error as Error).message;
      }
    };
    expect(refusal(() => networkPlan("http://127.0.0.1:1", policy(["*.example.com"])))).toBe(
      'the network policy\'s allow entry "*.example.com" has a wildcard, which runtimes cannot resolve; list each host: write host, host:port or [IPv6]:port',
    );
    expect(refusal(() => networkPlan("http://127.0.0.1:1", policy(["example.com:99999"])))).toMatch(
      /has a port outside 1-65535/,
    );
    expect(refusal(() => networkPlan("http://127.0.0.1:1", policy([], ["bad host"])))).toMatch(
      /block entry "bad host" is not a host name or address/,
    );
    expect(refusal(() => networkPlan("ftp://127.0.0.1:1", policy([])))).toMatch(/is not http\(s\)/);
  });
});

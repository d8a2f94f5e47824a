/**
 * What a sandbox may connect to, worked out from the interception server's URL and a task's
 * network policy: the host:port pairs the host's forwarder connects to, the addresses and ports
 * inside the sandbox that lead to them, and the /etc/hosts that names them. Inside there is no other
 * network: a name not in that file does not resolve, and an address nothing listens on refuses.
 *
 * The policy's entries are `host` (ports 80 and 443) or `host:port`, with `[v6]:port` for an IPv6
 * address; `block` removes from `allow` the entries it names (a bare host: all its ports). Names
 * are compared as written (`localhost` and `127.0.0.1` are two entries). Wildcards are refused.
 */
import { isIP } from "node:net";
import { UserError } from "@vf-rl/core";
import type { NetworkPolicy } from "@vf-rl/core/agents";

/** One host and port the sandbox may reach, as the host connects to it. */
export interface NetworkTarget {
  host: string;
  port: number;
}

/** Where the sandbox listens for one target, and the forwarder's socket that leads to it. */
export interface NetworkListener {
  address: string;
  port: number;
  /** Index of the target in `NetworkPlan.targets`. */
  target: number;
}

/** The network of one sandbox; see the file comment. */
export interface NetworkPlan {
  /** The interception server first, then the allowed hosts. */
  targets: NetworkTarget[];
  listeners: NetworkListener[];
  /** Addresses loopback gets inside besides its own: allowed IP literals outside 127.0.0.0/8 and ::1. */
  addresses: string[];
  /** Allowed host names that are not addresses, by the loopback address they get inside. */
  names: Array<{ address: string; name: string }>;
}

/** Ports a bare host name in `allow` opens. */
export const DEFAULT_PORTS = [80, 443];
/** Allowed names get loopback addresses from here on: 127.77.0.2, 127.77.0.3, ... */
const NAME_BASE = (127 << 24) | (77 << 16) | 2;

/** The plan for `policy` plus the interception server at `interceptionUrl`; UserError on a bad entry. */
export function networkPlan(interceptionUrl: string, policy: NetworkPolicy): NetworkPlan {
  const blocked = policy.block.map((entry) => parseEntry(entry, "block"));
  const isBlocked = (target: NetworkTarget) =>
    blocked.some(
      (entry) =>
        sameHost(entry.host, target.host) && (entry.ports === undefined || entry.ports.includes(target.port)),
    );
  const targets: NetworkTarget[] = [interceptionTarget(interceptionUrl)];
  for (const entry of policy.allow.map((text) => parseEntry(text, "allow"))) {
    for (const port of entry.ports ?? DEFAULT_PORTS) {
      const target = { host: entry.host, port };
      if (!isBlocked(target) && !targets.some((t) => sameHost(t.host, target.host) && t.port === port)) {
        targets.push(target);
      }
    }
  }
  const plan: NetworkPlan = { targets: [], listeners: [], addresses: [], names: [] };
  targets.forEach((target, index) => {
    for (const address of insideAddresses(target.host, plan)) {
      // Two names for one place (localhost and 127.0.0.1): the first keeps it.
      if (plan.listeners.some((l) => l.address === address && l.port === target.port)) continue;
      plan.listeners.push({ address, port: target.port, target: index });
    }
    plan.targets.push(target);
  });
  return plan;
}

/** /etc/hosts inside: loopback's names, the sandbox's own, and the allowed names. */
export function hostsFile(plan: NetworkPlan): string {
  const lines = [
    "127.0.0.1\tlocalhost",
    "::1\tlocalhost ip6-localhost ip6-loopback",
    "127.0.1.1\tsandbox",
    ...plan.names.map(({ address, name }) => `${address}\t${name}`),
  ];
  return `${lines.join("\n")}\n`;
}

/** The addresses inside that lead to `host`, recording names and extra addresses in `plan`. */
function insideAddresses(host: string, plan: NetworkPlan): string[] {
  if (host.toLowerCase() === "localhost") return ["127.0.0.1", "::1"];
  const family = isIP(host);
  if (family !== 0) {
    const loopback = family === 4 ? host.startsWith("127.") : host === "::1";
    if (!loopback && !plan.addresses.includes(host)) plan.addresses.push(host);
    return [host];
  }
  const known = plan.names.find((entry) => sameHost(entry.name, host));
  if (known) return [known.address];
  const n = NAME_BASE + plan.names.length;
  const address = [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join(".");
  plan.names.push({ address, name: host });
  return [address];
}

function interceptionTarget(url: string): NetworkTarget {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UserError(
      `the interception server's URL ${JSON.stringify(url)} is not a URL: pass http://HOST:PORT`,
    );
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new UserError(`the interception server's URL ${url} is not http(s): pass http://HOST:PORT`);
  }
  const host = parsed.hostname.replace(/^\[(.*)\]$/, "$1");
  const port = parsed.port ? Number(parsed.port) : parsed.protocol === "https:" ? 443 : 80;
  return { host, port };
}

/** An entry of `allow` or `block`: a host, and its port when one is given. */
function parseEntry(entry: string, list: "allow" | "block"): { host: string; ports?: number[] } {
  const refuse = (why: string) =>
    new UserError(
      `the network policy's ${list} entry ${JSON.stringify(entry)} ${why}: write host, host:port or [IPv6]:port`,
    );
  if (entry.includes("*")) throw refuse("has a wildcard, which runtimes cannot resolve; list each host");
  const bracketed = /^\[([0-9a-fA-F:.]+)\](?::(\d+))?$/.exec(entry);
  const [host, portText] = bracketed
    ? [bracketed[1] ?? "", bracketed[2]]
    : isIP(entry) === 6
      ? [entry, undefined]
      : (entry.split(/:(?=[^:]*$)/) as [string, string | undefined]);
  if (
    !(
      isIP(host) !== 0 ||
      /^[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*$/.test(host)
    )
  ) {
    throw refuse("is not a host name or address");
  }
  if (portText === undefined) return { host };
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port < 1 || port > 65535) throw refuse("has a port outside 1-65535");
  return { host, ports: [port] };
}

function sameHost(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/**
 * A local runtime's folder on the host, `vf-agent-<host mark>-XXXXXX` (see host-folder.ts): `work/`
 * is the task's working folder (/workspace inside), `home/` the agent's home, `tmp/` its /tmp,
 * `etc/` the small /etc every exec sees (users, the allowed hosts' names, no DNS), `net/` the
 * forwarder's sockets and `root/` the mount point each exec builds its root on.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createHostFolder } from "../sandbox/host-folder.ts";
import { INSIDE } from "./local-options.ts";

/** The start of every local runtime folder's name. */
export const FOLDER_PREFIX = "vf-agent";

/** Host folders shown read-only inside /etc, where they exist: certificates and Debian's alternatives. */
export const ETC_MIRRORS = ["/etc/ssl", "/etc/ca-certificates", "/etc/alternatives"];

/** The folders of one runtime. */
export interface RuntimeFolder {
  path: string;
  work: string;
  home: string;
  tmp: string;
  etc: string;
  net: string;
  root: string;
}

/**
 * Makes the folder with its /etc: `hosts` is the network plan's file; `etcMirrors` are the host
 * folders that will be bound into it (their mount points are made here).
 */
export function createRuntimeFolder(options: {
  tempDir?: string | undefined;
  sandboxUid: number;
  hosts: string;
  etcMirrors: readonly string[];
}): RuntimeFolder {
  const subfolders = ["work", "home", "tmp", "etc", "net", "root"] as const;
  const path = createHostFolder({
    prefix: FOLDER_PREFIX,
    subfolders,
    sandboxUid: options.sandboxUid,
    ...(options.tempDir === undefined ? {} : { tempDir: options.tempDir }),
  });
  const folder = {
    path,
    ...Object.fromEntries(subfolders.map((name) => [name, join(path, name)])),
  } as RuntimeFolder;
  const { user, uid, gid, home } = INSIDE;
  const etc: Record<string, string> = {
    passwd: `${user}:x:${uid}:${gid}:${user}:${home}:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n`,
    group: `${user}:x:${gid}:\nnogroup:x:65534:\n`,
    hosts: options.hosts,
    hostname: "sandbox\n",
    // Names resolve from hosts alone: there is no DNS server to ask.
    "nsswitch.conf": "passwd: files\ngroup: files\nshadow: files\nhosts: files\n",
    "resolv.conf": "",
  };
  for (const [name, text] of Object.entries(etc))
    writeFileSync(join(folder.etc, name), text, { mode: 0o644 });
  for (const mirror of options.etcMirrors) mkdirSync(join(folder.path, mirror), { recursive: true });
  return folder;
}

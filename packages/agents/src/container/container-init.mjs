// The container runtime's helper inside the container, run by the image's node (plain JavaScript:
// the image has no vf). Two modes:
//   node /vf/init.mjs serve CONFIG   the container's main process (under the engine's --init): it
//     listens, on the addresses the network plan gives the interception server and the allowed
//     hosts, for connections it relays to the host's forwarder through /vf/net/<n>.sock (the
//     container has no network of its own), and holds /vf/net/life.sock open: when the host (vf)
//     dies, that socket closes and this process exits, which stops the container.
//   node /vf/init.mjs exec ID -- ARGV...   one exec: the program in a process group of its own,
//     whose id it writes to /vf/run/ID, so that the host can end the group (kill mode).
//   node /vf/init.mjs kill ID   ends exec ID's process group.
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { connect, createServer } from "node:net";

const [mode, ...rest] = process.argv.slice(2);

if (mode === "serve") {
  const config = JSON.parse(rest[0] ?? "{}");
  for (const { address, port, socket } of config.listen) {
    createServer((inside) => {
      const outside = connect(`/vf/net/${socket}`);
      const end = () => {
        inside.destroy();
        outside.destroy();
      };
      inside.on("error", end);
      outside.on("error", end);
      inside.pipe(outside);
      outside.pipe(inside);
    }).listen({ host: address, port, ipv6Only: address.includes(":") });
  }
  const life = connect("/vf/net/life.sock");
  life.on("close", () => process.exit(0));
  life.on("error", () => process.exit(0));
} else if (mode === "exec") {
  const [id, separator, program, ...args] = rest;
  if (separator !== "--" || !program) throw new Error("usage: init.mjs exec ID -- PROGRAM [ARGS...]");
  const child = spawn(program, args, { stdio: "inherit", detached: true });
  child.on("spawn", () => writeFileSync(`/vf/run/${id}`, String(child.pid)));
  child.on("error", (error) => {
    process.stderr.write(
      `${program}: ${error.code === "ENOENT" ? "No such file or directory" : error.message}\n`,
    );
    process.exit(127);
  });
  child.on("exit", (code, signal) => {
    try {
      process.kill(-child.pid, "SIGKILL"); // what it left behind ends with it
    } catch {}
    process.exit(code ?? 128 + (signal === "SIGKILL" ? 9 : 15));
  });
} else if (mode === "kill") {
  const pid = Number(readFileSync(`/vf/run/${rest[0]}`, "utf8"));
  try {
    process.kill(-pid, "SIGKILL");
  } catch {}
} else {
  throw new Error(`init.mjs: unknown mode ${mode}`);
}

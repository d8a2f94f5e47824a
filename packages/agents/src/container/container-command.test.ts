// The container runtime's engine commands, checked where no engine runs: what a container may do
// is decided by these arguments.
import { describe, expect, it } from "vitest";
import {
  type ContainerSpec,
  execArgs,
  killArgs,
  listArgs,
  removeArgs,
  runArgs,
} from "./container-command.ts";

const spec: ContainerSpec = {
  name: "vf-agent-0123456789ab",
  image: "node:20-bookworm-slim",
  hostMark: "4026531836-4242-777",
  user: "1000:1000",
  work: "/tmp/vf-container-x/work",
  net: "/tmp/vf-container-x/net",
  run: "/tmp/vf-container-x/run",
  initScript: "/repo/packages/agents/src/container/container-init.mjs",
  hostsFile: "/tmp/vf-container-x/hosts",
  readOnlyPaths: ["/opt/agents/claude-code"],
  listeners: [
    { address: "127.0.0.1", port: 8123, socket: "0.sock" },
    { address: "127.77.0.2", port: 443, socket: "1.sock" },
  ],
  memoryMb: 2048,
  maxProcesses: 256,
  cpus: 1.5,
};

describe("the container runtime's commands", () => {
  it("starts a container with no network, no capabilities, limits, a read-only root and the runtime's folders", () => {
    expect(runArgs(spec)).toEqual([
      "run",
      "--detach",
      "--rm",
      "--name",
      "vf-agent-0123456789ab",
      "--label",
      "vf.agent.host=4026531836-4242-777",
      "--init",
      "--network",
      "none",
      "--cap-drop",
      "ALL",
      "--security-opt",
      "no-new-privileges",
      "--pids-limit",
      "256",
      "--memory",
      "2048m",
      "--cpus",
      "1.5",
      "--read-only",
      "--tmpfs",
      "/tmp:rw,nosuid,nodev,mode=1777",
      "--tmpfs",
      "/home/agent:rw,nosuid,nodev,uid=1000,gid=1000,mode=0700",
      "--user",
      "1000:1000",
      "--workdir",
      "/workspace",
      "--volume",
      "/tmp/vf-container-x/work:/workspace:rw",
      "--volume",
      "/tmp/vf-container-x/net:/vf/net:rw",
      "--volume",
      "/tmp/vf-container-x/run:/vf/run:rw",
      "--volume",
      "/repo/packages/agents/src/container/container-init.mjs:/vf/init.mjs:ro",
      "--volume",
      "/tmp/vf-container-x/hosts:/etc/hosts:ro",
      "--volume",
      "/opt/agents/claude-code:/opt/agents/claude-code:ro",
      "--env",
      "HOME=/home/agent",
      "node:20-bookworm-slim",
      "node",
      "/vf/init.mjs",
      "serve",
      '{"listen":[{"address":"127.0.0.1","port":8123,"socket":"0.sock"},{"address":"127.77.0.2","port":443,"socket":"1.sock"}]}',
    ]);
    expect(runArgs({ ...spec, cpus: undefined })).not.toContain("--cpus");
  });

  it("runs a program as a numbered exec in its own process group, and ends that group by number", () => {
    expect(
      execArgs("vf-agent-0123456789ab", "3", ["sh", "-c", "echo hi"], {
        env: { HOME: "/home/agent", KEY: "a=b" },
        cwd: "/workspace/sub",
        stdin: true,
      }),
    ).toEqual([
      "exec",
      "--interactive",
      "--workdir",
      "/workspace/sub",
      "--env",
      "HOME=/home/agent",
      "--env",
      "KEY=a=b",
      "vf-agent-0123456789ab",
      "node",
      "/vf/init.mjs",
      "exec",
      "3",
      "--",
      "sh",
      "-c",
      "echo hi",
    ]);
    expect(execArgs("c", "1", ["true"], { env: {}, cwd: "/workspace", stdin: false })).not.toContain(
      "--interactive",
    );
    expect(killArgs("vf-agent-0123456789ab", "3")).toEqual([
      "exec",
      "vf-agent-0123456789ab",
      "node",
      "/vf/init.mjs",
      "kill",
      "3",
    ]);
  });

  it("removes a container by force, and lists every host's containers with their host's mark", () => {
    expect(removeArgs("vf-agent-0123456789ab")).toEqual(["rm", "--force", "vf-agent-0123456789ab"]);
    expect(listArgs()).toEqual([
      "ps",
      "--all",
      "--filter",
      "label=vf.agent.host",
      "--format",
      '{{.Names}} {{.Label "vf.agent.host"}}',
    ]);
  });
});

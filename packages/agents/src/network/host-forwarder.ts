/**
 * The host's side of a sandbox's network: one Unix socket per allowed target in a folder the
 * sandbox's init reaches (and its program does not), each forwarding what arrives to its host:port
 * over the host's network. A socket leads to one target only, so nothing that reaches it can ask
 * for another. Closing the forwarder ends every connection it carries.
 */
import { chmod } from "node:fs/promises";
import { connect, createServer, type Server, type Socket } from "node:net";
import { join } from "node:path";
import { SandboxError } from "@vf-rl/core";
import type { NetworkTarget } from "./network-plan.ts";

/** The longest path a Unix socket may have (sun_path, with its terminating zero). */
const MAX_SOCKET_PATH = 107;

/** The Unix sockets of one sandbox's targets; see the file comment. */
export class HostForwarder {
  private readonly sockets = new Set<Socket>();

  private constructor(private readonly servers: Server[]) {}

  /** The name of target `index`'s socket in the forwarder's folder. */
  static socketName(index: number): string {
    return `${index}.sock`;
  }

  /** Listens in `dir` for every target, `<index>.sock`; the sockets are open to every user. */
  static async start(dir: string, targets: readonly NetworkTarget[]): Promise<HostForwarder> {
    const forwarder = new HostForwarder([]);
    try {
      for (const [index, target] of targets.entries()) {
        const path = join(dir, HostForwarder.socketName(index));
        if (Buffer.byteLength(path) > MAX_SOCKET_PATH) {
          throw new SandboxError(
            `the runtime's socket path ${path} is longer than the ${MAX_SOCKET_PATH} bytes a Unix socket may have: pass a shorter tempDir`,
          );
        }
        const server = createServer((socket) => forwarder.forward(socket, target));
        forwarder.servers.push(server);
        await new Promise<void>((resolve, reject) => {
          server.once("error", reject);
          server.listen(path, () => {
            server.off("error", reject);
            resolve();
          });
        });
        // The sandbox may run as another user (vf as root drops it to sandboxUid).
        await chmod(path, 0o666);
      }
    } catch (error) {
      await forwarder.close();
      throw error;
    }
    return forwarder;
  }

  /** Stops listening and ends every connection. */
  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await Promise.all(
      this.servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))),
    );
  }

  private forward(inside: Socket, target: NetworkTarget): void {
    const outside = connect({ host: target.host, port: target.port });
    for (const socket of [inside, outside]) {
      this.sockets.add(socket);
      socket.on("close", () => this.sockets.delete(socket));
      // A refused or broken connection ends both sides; the program sees its connection close.
      socket.on("error", () => {
        inside.destroy();
        outside.destroy();
      });
    }
    inside.pipe(outside);
    outside.pipe(inside);
  }
}

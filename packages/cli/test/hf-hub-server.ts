/**
 * A stand-in for the Hugging Face Hub on loopback, for tests of `vf eval -H`: the few routes the
 * `@huggingface/hub` client calls to create a dataset and commit files to it, answered as the Hub
 * answers them, recording what was uploaded. Test support only (not shipped).
 *
 * - GET  /api/whoami-v2                               the token's account (401 for another token)
 * - POST /api/repos/create                            a repo (409 when it exists)
 * - POST /api/datasets/<owner>/<name>/preupload/main  which files go through LFS: the .jsonl ones
 * - POST /datasets/<owner>/<name>.git/info/lfs/objects/batch   LFS "basic" transfer: where to PUT
 * - PUT  /lfs-objects/<sha256>                        an LFS object (its hash checked)
 * - POST /api/datasets/<owner>/<name>/commit/main     the commit (NDJSON: header, file, lfsFile lines)
 */
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A dataset repo as the stand-in holds it. */
export interface FakeRepo {
  type: string;
  /** Files of the latest commit, by path. */
  files: Map<string, Buffer>;
  /** Commit titles, oldest first. */
  commits: string[];
}

export interface FakeHfHub {
  /** What HF_ENDPOINT is set to. */
  url: string;
  /** Repos by id (`owner/name`). */
  repos: Map<string, FakeRepo>;
  /** Every request, `METHOD /path`, in order. */
  requests: string[];
  close(): Promise<void>;
}

export interface FakeHfHubOptions {
  /** The one token accepted. */
  token: string;
  /** Its account's name. */
  user: string;
}

export async function startFakeHfHub(options: FakeHfHubOptions): Promise<FakeHfHub> {
  const repos = new Map<string, FakeRepo>();
  const requests: string[] = [];
  const lfsObjects = new Map<string, Buffer>();
  let base = "";

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const path = new URL(request.url ?? "/", base).pathname;
    const method = request.method ?? "GET";
    requests.push(`${method} ${path}`);
    const body = await readBody(request);
    const json = (status: number, value: unknown) => {
      response.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(value));
    };
    // The LFS upload URL is presigned, as the Hub's storage is: no token on it.
    const upload = /^\/lfs-objects\/([0-9a-f]{64})$/.exec(path);
    if (method === "PUT" && upload) {
      if (createHash("sha256").update(body).digest("hex") !== upload[1])
        return json(400, { error: "hash mismatch" });
      lfsObjects.set(upload[1]!, body);
      return response.writeHead(200).end();
    }
    if (request.headers.authorization !== `Bearer ${options.token}`) {
      return json(401, { error: "Invalid credentials in Authorization header" });
    }
    if (method === "GET" && path === "/api/whoami-v2") {
      return json(200, {
        type: "user",
        id: "1",
        name: options.user,
        fullname: options.user,
        orgs: [],
        auth: {},
      });
    }
    if (method === "POST" && path === "/api/repos/create") {
      const { name, organization, type } = JSON.parse(body.toString()) as Record<string, string>;
      const id = `${organization}/${name}`;
      if (repos.has(id))
        return json(409, { error: "You already created this dataset repo", url: `${base}/datasets/${id}` });
      repos.set(id, { type: type ?? "model", files: new Map(), commits: [] });
      return json(200, { url: `${base}/datasets/${id}`, id });
    }
    const preupload = /^\/api\/datasets\/([^/]+\/[^/]+)\/preupload\/main$/.exec(path);
    if (method === "POST" && preupload) {
      if (!repos.has(preupload[1]!)) return json(404, { error: "Repository not found" });
      const { files } = JSON.parse(body.toString()) as { files: Array<{ path: string }> };
      return json(200, {
        files: files.map((file) => ({
          path: file.path,
          uploadMode: file.path.endsWith(".jsonl") ? "lfs" : "regular",
          shouldIgnore: false,
        })),
      });
    }
    const batch = /^\/datasets\/([^/]+\/[^/]+)\.git\/info\/lfs\/objects\/batch$/.exec(path);
    if (method === "POST" && batch) {
      const { objects } = JSON.parse(body.toString()) as { objects: Array<{ oid: string; size: number }> };
      response.writeHead(200, { "Content-Type": "application/vnd.git-lfs+json" });
      return response.end(
        JSON.stringify({
          transfer: "basic",
          objects: objects.map(({ oid, size }) => ({
            oid,
            size,
            ...(lfsObjects.has(oid) ? {} : { actions: { upload: { href: `${base}/lfs-objects/${oid}` } } }),
          })),
        }),
      );
    }
    const commit = /^\/api\/datasets\/([^/]+\/[^/]+)\/commit\/main$/.exec(path);
    if (method === "POST" && commit) {
      const repo = repos.get(commit[1]!);
      if (!repo) return json(404, { error: "Repository not found" });
      const files = new Map(repo.files);
      let title = "";
      for (const line of body.toString().split("\n").filter(Boolean)) {
        const { key, value } = JSON.parse(line) as { key: string; value: Record<string, string> };
        if (key === "header") title = value.summary ?? "";
        else if (key === "file") files.set(value.path!, Buffer.from(value.content!, "base64"));
        else if (key === "lfsFile") {
          const object = lfsObjects.get(value.oid!);
          if (!object) return json(400, { error: `LFS object ${value.oid} was never uploaded` });
          files.set(value.path!, object);
        } else if (key === "deletedFile") files.delete(value.path!);
        else return json(400, { error: `unknown commit operation ${key}` });
      }
      repo.files = files;
      repo.commits.push(title);
      const oid = createHash("sha1").update(`${commit[1]}:${repo.commits.length}`).digest("hex");
      return json(200, { commitOid: oid, commitUrl: `${base}/datasets/${commit[1]}/commit/${oid}` });
    }
    return json(404, { error: `no route ${method} ${path}` });
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      response.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    repos,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks)));
    request.on("error", reject);
  });
}

import { gunzipSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { HubError } from "../hub-error.ts";
import { rawTarEntry, rawTgz } from "../testing/tar-entries.ts";
import { contentHash } from "./content-hash.ts";
import { packTarball, unpackTarball } from "./package-tarball.ts";
import { readTar } from "./tar-reader.ts";
import { writeTar } from "./tar-writer.ts";

const text = (s: string) => Buffer.from(s, "utf8");
const manifest = text(JSON.stringify({ name: "echo", version: "1.0.0", vf: { id: "echo" } }));

function refusal(tgz: Uint8Array): HubError {
  try {
    unpackTarball(tgz);
  } catch (error) {
    if (error instanceof HubError) return error;
    throw error;
  }
  throw new Error("the tarball was accepted");
}

describe("package tarballs", () => {
  it("round-trip files under package/, reproducibly, with long paths", () => {
    const long = `data/${"x".repeat(120)}.json`;
    const files = [
      { path: "package.json", data: manifest },
      { path: long, data: text("[1,2,3]") },
    ];
    const tgz = packTarball(files);
    expect(packTarball([...files].reverse())).toEqual(tgz);
    const back = unpackTarball(tgz);
    expect(back.map((f) => f.path).sort()).toEqual([long, "package.json"]);
    expect(contentHash(back)).toBe(contentHash(files));
    expect(readTar(gunzipSync(tgz))[0]!.path).toBe(`package/${long}`);
  });

  it("refuses path traversal, absolute paths, symlinks and hardlinks, naming the entry", () => {
    const pkg = rawTarEntry("package/package.json", "0", manifest);
    expect(refusal(rawTgz(pkg, rawTarEntry("package/../../etc/passwd", "0", text("x")))).message).toMatch(
      /"package\/..\/..\/etc\/passwd" has a '..' segment/,
    );
    expect(refusal(rawTgz(pkg, rawTarEntry("/etc/cron.d/x", "0", text("x")))).message).toMatch(
      /absolute path/,
    );
    expect(
      refusal(rawTgz(pkg, rawTarEntry("package/link", "2", new Uint8Array(), "/etc/passwd"))).message,
    ).toMatch(/"package\/link" is a symlink/);
    expect(
      refusal(rawTgz(pkg, rawTarEntry("package/hard", "1", new Uint8Array(), "package/package.json"))).code,
    ).toBe("invalid_package");
  });

  it("refuses oversize packages before unpacking them whole", () => {
    const big = packTarball([
      { path: "package.json", data: manifest },
      { path: "blob.bin", data: new Uint8Array(3 * 1024 * 1024) },
    ]);
    expect(() => unpackTarball(big, { maxUnpackedBytes: 1024 * 1024 })).toThrow(/unpacks to over/);
    expect(() => unpackTarball(big, { maxTarballBytes: 100 })).toThrow(/over the limit of 100/);
    expect(refusal(packTarball([{ path: "a", data: text("x") }])).message).toMatch(
      /no package\/package.json/,
    );
  });

  it("refuses what the content-hash rules exclude, and garbage", () => {
    expect(
      refusal(
        packTarball([
          { path: "package.json", data: manifest },
          { path: ".env", data: text("K=1") },
        ]),
      ).message,
    ).toMatch(/excluded by the content-hash rules/);
    expect(refusal(text("not gzip")).message).toMatch(/not gzip-compressed/);
    expect(refusal(gzipSync(text("x".repeat(600)))).message).toMatch(/not a valid tar archive/);
    expect(writeTar([]).length).toBe(1024);
  });
});

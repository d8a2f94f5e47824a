import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadEndpointRegistry } from "@vf-rl/core/client";
import { loadTrainConfig } from "@vf-rl/train";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadEvalConfig } from "../eval/eval-config.ts";
import { setupWorkspace } from "./setup-command.ts";
import { ENDPOINTS_TOML } from "./workspace-files.ts";

const shippedConfigs = fileURLToPath(new URL("../../../../../configs/", import.meta.url));
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "vf-setup-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("vf setup", () => {
  it("writes an endpoint registry that parses, with every example commented out", async () => {
    const results = await setupWorkspace(dir, false);
    expect(results[0]).toEqual({ path: join("configs", "endpoints.toml"), outcome: "wrote" });
    const registry = await loadEndpointRegistry(join(dir, "configs", "endpoints.toml"));
    expect(registry.ids()).toEqual([]);
    const text = await readFile(join(dir, "configs", "endpoints.toml"), "utf8");
    expect(text).toContain('# url = "https://api.openai.com/v1"');
    expect(text).toContain("vf serve");
  });

  it("has examples that parse once uncommented, each with its API", async () => {
    const rows = ENDPOINTS_TOML.split("\n")
      .filter((line) => /^# (\[\[endpoint\]\]|\w+ = )/.test(line))
      .map((line) => line.slice(2));
    const path = join(dir, "uncommented.toml");
    await writeFile(path, rows.join("\n"));
    const registry = await loadEndpointRegistry(path);
    expect(registry.ids()).toEqual(["gpt-4.1-mini", "claude", "qwen3", "local"]);
    expect(registry.get("claude")!.replicas[0]!.type).toBe("anthropic_messages");
    expect(registry.get("qwen3")!.replicas.map((r) => r.type)).toEqual([
      "openai_chat_completions",
      "openai_chat_completions",
    ]);
  });

  it("keeps a file the user changed unless forced, and leaves identical files alone", async () => {
    await setupWorkspace(dir, false);
    const endpoints = join(dir, "configs", "endpoints.toml");
    await writeFile(endpoints, "# mine\n");
    const again = await setupWorkspace(dir, false);
    expect(again.find((r) => r.path.endsWith("endpoints.toml"))?.outcome).toBe("kept");
    expect(
      again.filter((r) => !r.path.endsWith("endpoints.toml")).every((r) => r.outcome === "unchanged"),
    ).toBe(true);
    expect(await readFile(endpoints, "utf8")).toBe("# mine\n");
    const forced = await setupWorkspace(dir, true);
    expect(forced.find((r) => r.path.endsWith("endpoints.toml"))?.outcome).toBe("overwrote");
    expect(await readFile(endpoints, "utf8")).not.toBe("# mine\n");
  });

  it("writes an eval config per bundled environment and the shipped training configs, each loadable", async () => {
    const written = (await setupWorkspace(dir, false)).map((r) => r.path);
    const bundled = [
      "alphabet-sort",
      "gsm8k",
      "gsm8k-calculator",
      "python",
      "reverse-text",
      "tool-arithmetic",
      "wiki-search",
      "wordle",
    ];
    for (const id of bundled) {
      expect(written).toContain(join("configs", "eval", `${id}.toml`));
      const [spec] = await loadEvalConfig(join(dir, "configs", "eval", `${id}.toml`));
      expect(spec).toMatchObject({ envId: id });
    }
    // wiki-search's is the one shipped in configs/eval, with its arguments.
    const wiki = await readFile(join(dir, "configs", "eval", "wiki-search.toml"), "utf8");
    expect(wiki).toBe(await readFile(join(shippedConfigs, "eval", "wiki-search.toml"), "utf8"));
    const [wikiSpec] = await loadEvalConfig(join(dir, "configs", "eval", "wiki-search.toml"));
    expect(wikiSpec).toMatchObject({ envId: "wiki-search", envArgs: { maxTurns: 10 } });
    for (const name of ["reverse-text", "alphabet-sort", "wiki-search"]) {
      const config = await loadTrainConfig(join(dir, "configs", "train", `${name}.toml`));
      expect(config.env.map((env) => env.id)).toEqual([name]);
    }
  });
});

// Every flag of vf that a README of the repository writes exists on the command it is written for, so the
// docs cannot drift from the program again (the Hub's README once said `vf env delete -f`; the flag
// is -y). A flag belongs to the `vf ...` command in its own code span (`vf eval -f`), or, written
// alone in a table row (`| \`vf env install ID\` | ... | \`-g/--global\` |`), to the commands the row names.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Command } from "commander";
import { describe, expect, it } from "vitest";
import { buildProgram } from "../src/program.ts";
import { processOutput } from "../src/terminal/output.ts";

const root = fileURLToPath(new URL("../../../", import.meta.url));
/** The README of the repository, of each package and of each bundled environment. */
const readmes = [
  "README.md",
  ...["packages", "environments"].flatMap((folder) =>
    readdirSync(join(root, folder))
      .map((name) => join(folder, name, "README.md"))
      .filter((path) => existsSync(join(root, path))),
  ),
];

// Only its shape is read: nothing runs, so the output is never written to.
const program = buildProgram(processOutput(), () => {});

/** Commands whose other flags are config keys (`vf train cfg.toml --max_steps 5`), spelled with `_` or `.`. */
const TAKES_CONFIG_KEYS = new Set(["vf train"]);

/** A flag the README writes, where, and the commands it may belong to. */
interface FlagMention {
  flag: string;
  where: string;
  commands: Command[];
}

describe.each(readmes)("the flags %s writes", (readme) => {
  const mentions = flagMentions(readme);

  it("each exist on the vf command they are written for", () => {
    const wrong = mentions
      .filter((mention) => !mention.commands.some((command) => accepts(command, mention.flag)))
      .map(
        (mention) =>
          `${mention.where}: ${mention.flag} is not a flag of ${mention.commands.map(path).join(" or ")}`,
      );
    expect(wrong).toEqual([]);
  });
});

describe("the check itself", () => {
  it("finds the Hub's table rows, and would have caught `vf env delete -f`", () => {
    const hub = flagMentions("packages/hub/README.md");
    const onDelete = hub.filter((mention) => mention.commands.some((c) => path(c) === "vf env delete"));
    expect(onDelete.map((mention) => mention.flag)).toEqual(["-y"]);
    expect(accepts(onDelete[0]!.commands[0]!, "-y")).toBe(true);
    expect(accepts(onDelete[0]!.commands[0]!, "-f")).toBe(false);
    expect(hub.length).toBeGreaterThan(20);
  });
});

/** Every flag mention in `readme` (a path from the repository root), with the commands it can belong to. */
function flagMentions(readme: string): FlagMention[] {
  const mentions: FlagMention[] = [];
  const text = readFileSync(join(root, readme), "utf8");
  for (const unit of units(text)) {
    const where = `${readme}, ${unit.kind} "${unit.text.slice(0, 60).replace(/\s+/g, " ")}…"`;
    const fenced = unit.kind === "code block";
    // In a code block, each line is a command line; in text, each `code span` is one.
    const spans = fenced
      ? unit.text.split("\n").map((line) => line.replace(/\s#.*$/, ""))
      : [...unit.text.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);
    const named: Command[] = [];
    const loose: string[] = [];
    for (const span of spans) {
      const words = span.replace(/\\\|/g, "|").trim().split(/\s+/);
      const start = words[0] === "npx" ? 1 : 0;
      if (words[start] === "vf") {
        const command = commandOf(words.slice(start + 1));
        named.push(command);
        for (const flag of flagsIn(words)) mentions.push({ flag, where, commands: [command] });
      } else if (!fenced && words[0]?.startsWith("-")) {
        loose.push(...flagsIn(words));
      }
    }
    // A flag written alone in a row belongs to the commands the row names; in prose it may be any
    // program's, or a command's named a line earlier, so it is not checked there.
    if (unit.kind === "table row" && named.length > 0) {
      for (const flag of loose) mentions.push({ flag, where, commands: named });
    }
  }
  return mentions;
}

type Unit = { kind: "table row" | "text" | "code block"; text: string };

/** Table rows one by one, fenced code blocks whole, and the rest a line at a time. */
function units(markdown: string): Unit[] {
  const out: Unit[] = [];
  let code: string[] | null = null;
  for (const line of markdown.split("\n")) {
    if (line.trimStart().startsWith("```")) {
      if (code) out.push({ kind: "code block", text: code.join("\n") });
      code = code ? null : [];
    } else if (code) {
      code.push(line);
    } else {
      out.push({ kind: line.startsWith("|") ? "table row" : "text", text: line });
    }
  }
  return out;
}

/** The deepest command the words name: `env delete ID -y` is `vf env delete`. */
function commandOf(words: string[]): Command {
  let command = program;
  for (const word of words) {
    const sub = command.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (!sub) break;
    command = sub;
  }
  return command;
}

/** The flags among some words: `-g/--global` is two, `--sampling.temperature=0.7` is `--sampling.temperature`. */
function flagsIn(words: string[]): string[] {
  return words
    .map((word) => word.replace(/^[[(]+|[\]),.;:]+$/g, ""))
    .flatMap((word) => word.split("/"))
    .map((word) => word.split("=")[0]!)
    .filter((word) => /^--?[A-Za-z][\w.-]*$/.test(word));
}

function accepts(command: Command, flag: string): boolean {
  if (flag === "-h" || flag === "--help") return true;
  if (command.options.some((option) => option.short === flag || option.long === flag)) return true;
  return TAKES_CONFIG_KEYS.has(path(command)) && /^--[\w-]*[_.]/.test(flag);
}

function path(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c; c = c.parent) names.unshift(c.name());
  return names.join(" ");
}

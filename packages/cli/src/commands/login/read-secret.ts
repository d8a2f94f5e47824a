/**
 * Reads a secret (an API key) from stdin: piped input is read to its end and its first line taken;
 * at a terminal the user is prompted and the typed characters are not echoed, so the key never
 * lands in the shell history or on screen.
 */
import { UsageError } from "../../cli-errors.ts";

/** The first non-empty line of stdin, or what the user types after `prompt` at a terminal. */
export async function readSecret(prompt: string): Promise<string> {
  const text = process.stdin.isTTY ? await readHidden(prompt) : await readPiped();
  const line = text.split(/\r?\n/).find((l) => l.trim() !== "");
  if (!line) {
    throw new UsageError(
      "no API key was given: paste it when asked, pipe it (echo $KEY | vf login --key), or pass --key KEY",
    );
  }
  return line.trim();
}

async function readPiped(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function readHidden(prompt: string): Promise<string> {
  const stdin = process.stdin;
  // Written directly: the prompt stays on the line the user types on.
  process.stderr.write(prompt);
  return new Promise((resolve, reject) => {
    let typed = "";
    const finish = (error?: Error) => {
      stdin.off("data", onData);
      stdin.setRawMode(false);
      stdin.pause();
      process.stderr.write("\n");
      if (error) reject(error);
      else resolve(typed);
    };
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === "\r" || char === "\n") return finish();
        if (char === "\u0003") return finish(new UsageError("cancelled: no key was saved"));
        if (char === "\u007f" || char === "\b") typed = typed.slice(0, -1);
        else typed += char;
      }
    };
    stdin.setRawMode(true);
    stdin.setEncoding("utf8");
    stdin.on("data", onData);
    stdin.resume();
  });
}

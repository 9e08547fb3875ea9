// Secrets for the command line without putting them on it (where `ps` shows them to every user of the machine):
// from a variable, from standard input, or typed at a prompt that does not echo.
import { stderr, stdin } from "node:process";
import { createInterface } from "node:readline";

export type SecretSource = {
  /** The value given on the command line (still taken, with a warning). */
  flag: string | undefined;
  /** The flag's name, for messages: `--password`. */
  flagName: string;
  /** Read the first line of standard input. */
  fromStdin: boolean;
  /** The variable it may come from: `USER_PASSWORD`. */
  envName: string;
  env: NodeJS.ProcessEnv;
};

/** The first line of standard input, without its line end. */
async function firstLine(): Promise<string> {
  const lines = createInterface({ input: stdin, crlfDelay: Number.POSITIVE_INFINITY, terminal: false });
  try {
    for await (const line of lines) return line;
    return "";
  } finally {
    lines.close();
  }
}

/** Prompts on the terminal with echo off. */
async function prompt(question: string): Promise<string> {
  stderr.write(question);
  stdin.setRawMode?.(true);
  stdin.resume();
  let typed = "";
  try {
    return await new Promise<string>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        for (const char of chunk.toString("utf8")) {
          if (char === "\r" || char === "\n" || char === "\u0004") {
            stdin.off("data", onData);
            resolve(typed);
            return;
          }
          if (char === "\u0003") {
            stdin.off("data", onData);
            reject(new Error("cancelled"));
            return;
          }
          typed = char === "\u007f" ? typed.slice(0, -1) : typed + char;
        }
      };
      stdin.on("data", onData);
    });
  } finally {
    stdin.setRawMode?.(false);
    stdin.pause();
    stderr.write("\n");
  }
}

/** The secret from the first source that has one; undefined when none does and no terminal can ask. */
export async function readSecret(source: SecretSource): Promise<string | undefined> {
  if (source.fromStdin) return firstLine();
  const fromEnv = source.env[source.envName];
  if (fromEnv) return fromEnv;
  if (source.flag !== undefined) {
    console.error(
      `warning: ${source.flagName} on the command line is visible to other users of this machine; use ${source.flagName}-stdin or ${source.envName}`,
    );
    return source.flag;
  }
  if (stdin.isTTY) return prompt(`${source.flagName.replace(/^--/, "")}: `);
  return undefined;
}

// Cypher tokenizer: identifiers, strings, numbers, $params and punctuation, each with its line:column.

import { cypherError, type Pos } from "./errors.ts";

export type Token =
  | ({ kind: "ident"; text: string; quoted: boolean } & Pos)
  | ({ kind: "string"; text: string } & Pos)
  | ({ kind: "number"; value: number; integer: boolean; text: string } & Pos)
  | ({ kind: "param"; text: string } & Pos)
  | ({ kind: "punct"; text: string } & Pos)
  | ({ kind: "eof"; text: "" } & Pos);

const MULTI = ["<=", ">=", "<>", "=~", ".."];
const SINGLE = "()[]{}:,.|*-<>=+/%";
const ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r", "\\": "\\", "'": "'", '"': '"' };

export function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  let line = 1;
  let lineStart = 0;
  const pos = (at: number): Pos => ({ line, column: at - lineStart + 1 });
  while (i < src.length) {
    const c = src[i] as string;
    if (c === "\n") {
      i++;
      line++;
      lineStart = i;
      continue;
    }
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === "/" && src[i + 1] === "/") {
      while (i < src.length && src[i] !== "\n") i++;
      continue;
    }
    const p = pos(i);
    if (c === "'" || c === '"') {
      let text = "";
      i++;
      for (;;) {
        const d = src[i];
        if (d === undefined || d === "\n") throw cypherError("unterminated string literal", p);
        i++;
        if (d === c) break;
        if (d === "\\") {
          const e = src[i];
          const mapped = e === undefined ? undefined : ESCAPES[e];
          if (mapped === undefined) throw cypherError(`invalid escape sequence '\\${e ?? ""}'`, pos(i - 1));
          text += mapped;
          i++;
        } else text += d;
      }
      out.push({ kind: "string", text, ...p });
      continue;
    }
    if (c === "`") {
      const end = src.indexOf("`", i + 1);
      if (end < 0) throw cypherError("unterminated quoted identifier", p);
      out.push({ kind: "ident", text: src.slice(i + 1, end), quoted: true, ...p });
      i = end + 1;
      continue;
    }
    if (/[0-9]/.test(c)) {
      let j = i;
      while (/[0-9]/.test(src[j] ?? "")) j++;
      let integer = true;
      if (src[j] === "." && /[0-9]/.test(src[j + 1] ?? "")) {
        integer = false;
        j++;
        while (/[0-9]/.test(src[j] ?? "")) j++;
      }
      if (/[A-Za-z_]/.test(src[j] ?? "")) throw cypherError(`invalid number '${src.slice(i, j + 1)}'`, p);
      const text = src.slice(i, j);
      out.push({ kind: "number", value: Number(text), integer, text, ...p });
      i = j;
      continue;
    }
    if (/[A-Za-z_]/.test(c) || (c === "$" && /[A-Za-z_]/.test(src[i + 1] ?? ""))) {
      let j = c === "$" ? i + 1 : i;
      while (/[A-Za-z0-9_]/.test(src[j] ?? "")) j++;
      if (c === "$") out.push({ kind: "param", text: src.slice(i + 1, j), ...p });
      else out.push({ kind: "ident", text: src.slice(i, j), quoted: false, ...p });
      i = j;
      continue;
    }
    const two = src.slice(i, i + 2);
    if (MULTI.includes(two)) {
      out.push({ kind: "punct", text: two, ...p });
      i += 2;
      continue;
    }
    if (SINGLE.includes(c)) {
      out.push({ kind: "punct", text: c, ...p });
      i++;
      continue;
    }
    throw cypherError(`unexpected character '${c}'`, p);
  }
  out.push({ kind: "eof", text: "", ...pos(i) });
  return out;
}

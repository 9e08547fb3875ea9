// Tokens of a pandas DataFrame.query string (Python expression syntax, as pandas.core.computation.expr reads it):
// numbers, quoted strings, names (backtick-quoted names may hold any character but a backtick), keywords and
// operators. What the grammar does not take is refused here by name with its 1-based column.

import { gfqlError } from "../gfql-error.ts";

export type Token =
  | { t: "num"; v: number; pos: number }
  | { t: "str"; v: string; pos: number }
  | { t: "name"; v: string; pos: number }
  | { t: "kw"; v: "and" | "or" | "not" | "in" | "True" | "False" | "None"; pos: number }
  | { t: "op"; v: string; pos: number }
  | { t: "eof"; pos: number };

/** A query-string error: E205 (the reference's code for a bad query) with the column it starts at. */
export function queryError(message: string, pos: number, path: string, code = "E205"): Error {
  return gfqlError(code, `${message} at column ${pos + 1} of the query string`, path, { position: pos + 1 });
}

const KEYWORDS = new Set(["and", "or", "not", "in", "True", "False", "None"]);
/** Python keywords pandas' query grammar has no use for: refused by name. */
const REFUSED_KEYWORDS = new Set([
  "is",
  "if",
  "else",
  "lambda",
  "for",
  "while",
  "def",
  "class",
  "import",
  "from",
  "as",
  "with",
  "yield",
  "await",
  "async",
  "return",
  "pass",
  "del",
  "global",
  "nonlocal",
  "assert",
  "raise",
  "try",
  "except",
  "finally",
  "break",
  "continue",
]);
/** Longest first, so `**` is not read as two `*`. `=` only names a keyword argument (the parser refuses assignment). */
const OPERATORS = ["**", "//", "==", "!=", "<=", ">=", "<", ">", "=", "+", "-", "*", "/", "%", "&", "|", "~", "(", ")", "[", "]", ",", "."];
const REFUSED_OPERATORS: Record<string, string> = {
  "@": "local variables (@name) are not supported",
  "^": "'^' (exclusive or) is not supported",
  "<<": "bit shifts are not supported",
  ">>": "bit shifts are not supported",
  ":": "':' (slices, lambdas, walrus) is not supported",
  "{": "dict and set literals are not supported",
  "}": "dict and set literals are not supported",
  ";": "';' (several statements) is not supported",
  "\\": "line continuations are not supported",
  "#": "comments are not supported",
};

const ESCAPES: Record<string, string> = {
  n: "\n",
  t: "\t",
  r: "\r",
  "\\": "\\",
  "'": "'",
  '"': '"',
  "0": "\0",
  a: "\x07",
  b: "\b",
  f: "\f",
  v: "\v",
};

function readString(src: string, start: number, path: string): { value: string; end: number } {
  const quote = src[start] as string;
  if (src.startsWith(quote.repeat(3), start)) throw queryError("triple-quoted strings are not supported", start, path);
  let out = "";
  let i = start + 1;
  while (i < src.length) {
    const c = src[i] as string;
    if (c === quote) return { value: out, end: i + 1 };
    if (c === "\n") break;
    if (c !== "\\") {
      out += c;
      i++;
      continue;
    }
    const e = src[i + 1];
    if (e === undefined) break;
    if (e in ESCAPES) {
      out += ESCAPES[e];
      i += 2;
    } else if (e === "x" || e === "u" || e === "U") {
      const len = e === "x" ? 2 : e === "u" ? 4 : 8;
      const hex = src.slice(i + 2, i + 2 + len);
      if (!new RegExp(`^[0-9a-fA-F]{${len}}$`).test(hex)) throw queryError(`bad \\${e} escape in a string`, i, path);
      out += String.fromCodePoint(Number.parseInt(hex, 16));
      i += 2 + len;
    } else {
      out += `\\${e}`; // Python keeps an unknown escape as written
      i += 2;
    }
  }
  throw queryError("unterminated string", start, path);
}

const NUMBER = /^(?:\d(?:_?\d)*(?:\.(?:\d(?:_?\d)*)?)?|\.\d(?:_?\d)*)(?:[eE][+-]?\d(?:_?\d)*)?/;

function readNumber(src: string, start: number, path: string): { value: number; end: number } {
  const rest = src.slice(start);
  if (/^0[xXoObB]/.test(rest)) throw queryError("hexadecimal, octal and binary literals are not supported", start, path);
  const m = NUMBER.exec(rest);
  if (m === null) throw queryError("bad number", start, path);
  const text = m[0].replaceAll("_", "");
  const end = start + m[0].length;
  if (/^[jJ]/.test(src.slice(end))) throw queryError("complex numbers are not supported", start, path);
  if (/^[A-Za-z_]/.test(src.slice(end))) throw queryError("bad number", start, path);
  if (/^0\d/.test(text) && /^\d+$/.test(text) && !/^0+$/.test(text)) {
    throw queryError("leading zeros in an integer are not allowed (as in Python)", start, path);
  }
  const value = Number(text);
  if (/^\d+$/.test(text) && !Number.isSafeInteger(value)) {
    throw queryError("integer literals beyond 2^53 are not supported in query strings", start, path);
  }
  return { value, end };
}

const NAME_START = /[\p{L}_]/u;
const NAME_PART = /[\p{L}\p{N}_]/u;

export function tokenize(src: string, path: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i] as string;
    if (c === " " || c === "\t" || c === "\n" || c === "\r") {
      i++;
      continue;
    }
    if (c === "'" || c === '"') {
      const { value, end } = readString(src, i, path);
      tokens.push({ t: "str", v: value, pos: i });
      i = end;
      continue;
    }
    if (c === "`") {
      const end = src.indexOf("`", i + 1);
      if (end < 0) throw queryError("unterminated backtick-quoted name", i, path);
      if (end === i + 1) throw queryError("empty backtick-quoted name", i, path);
      tokens.push({ t: "name", v: src.slice(i + 1, end), pos: i });
      i = end + 1;
      continue;
    }
    if (/\d/.test(c) || (c === "." && /\d/.test(src[i + 1] ?? ""))) {
      const { value, end } = readNumber(src, i, path);
      tokens.push({ t: "num", v: value, pos: i });
      i = end;
      continue;
    }
    if (NAME_START.test(c)) {
      let end = i + 1;
      while (end < src.length && NAME_PART.test(src[end] as string)) end++;
      const word = src.slice(i, end);
      if ((src[end] === "'" || src[end] === '"') && /^[rRbBfFuU]{1,2}$/.test(word)) {
        throw queryError(`string prefixes (${word}'...') are not supported`, i, path);
      }
      if (REFUSED_KEYWORDS.has(word)) throw queryError(`'${word}' is not supported in query strings`, i, path);
      tokens.push(KEYWORDS.has(word) ? ({ t: "kw", v: word, pos: i } as Token) : { t: "name", v: word, pos: i });
      i = end;
      continue;
    }
    const two = src.slice(i, i + 2);
    const refused = REFUSED_OPERATORS[two] ?? (OPERATORS.includes(two) ? undefined : REFUSED_OPERATORS[c]);
    if (refused !== undefined) throw queryError(refused, i, path);
    const op = OPERATORS.find((o) => src.startsWith(o, i));
    if (op === undefined) throw queryError(`unexpected character ${JSON.stringify(c)}`, i, path);
    tokens.push({ t: "op", v: op, pos: i });
    i += op.length;
  }
  tokens.push({ t: "eof", pos: src.length });
  return tokens;
}

// Decodes JSON text the way pandas' read_json does (its bundled ujson), into Python-like values.
//
// Integers stay exact (bigint), whatever their size up to uint64; floats are computed as ujson computes
// them without precise_float (at most 15 fraction digits, then a power of ten), so the values are the
// ones pandas holds, bit for bit. Objects keep their keys in order (a Map: JavaScript objects would put
// integer-like keys first), the last of repeated keys winning, as in a Python dict.

export type PyDict = Map<string, PyValue>;
/** null is None; bigint is a Python int; number is a Python float. */
export type PyValue = null | boolean | string | bigint | number | PyValue[] | PyDict;

export class JsonDecodeError extends Error {
  readonly offset: number;
  /** Set when the text nests deeper than the decoder was allowed to go. */
  readonly depthLimit: number | undefined;
  constructor(message: string, offset: number, depthLimit?: number) {
    super(message);
    this.offset = offset;
    this.depthLimit = depthLimit;
  }
}

/** ujson's own limit, pandas' too. */
export const MAX_DEPTH = 1024;
const TWO_63 = 2n ** 63n;
const TWO_64 = 2n ** 64n;
/** ujson's g_pow10: the fraction's scale, as the C literals 0.1, 0.01... */
const POW10 = Array.from({ length: 16 }, (_, i) => Number(`1e-${i}`));
/** ujson keeps at most this many fraction digits (JSON_DOUBLE_MAX_DECIMALS). */
const MAX_DECIMALS = 15;

const isDigit = (c: number) => c >= 48 && c <= 57;

/**
 * Decodes text as pandas' ujson does. With preciseFloat, floats are read exactly (strtod), and one that
 * overflows or falls below the normal range is refused as strtod's ERANGE makes ujson refuse it. Arrays and
 * objects nest at most `maxDepth` deep.
 */
export function decodeJson(text: string, preciseFloat = false, maxDepth = MAX_DEPTH): PyValue {
  let at = 0;
  let depth = 0;
  const fail = (message: string): never => {
    throw new JsonDecodeError(message, at);
  };
  const skip = () => {
    for (;;) {
      const c = text.charCodeAt(at);
      if (c === 32 || c === 9 || c === 13 || c === 10) at += 1;
      else return;
    }
  };

  function number(): bigint | number | null {
    const start = at;
    let negative = false;
    if (text[at] === "N") {
      if (text.startsWith("NaN", at)) {
        at += 3;
        return null; // ujson decodes NaN as None
      }
      fail("Unexpected character found when decoding 'NaN'");
    }
    if (text[at] === "-") {
      negative = true;
      at += 1;
    }
    if (text[at] === "I") {
      if (!text.startsWith("Infinity", at)) fail(`Unexpected character found when decoding '${negative ? "-" : ""}Infinity'`);
      at += 8;
      return negative ? -Infinity : Infinity;
    }
    const digitsFrom = at;
    while (isDigit(text.charCodeAt(at))) at += 1;
    // Short runs of digits are exact as doubles; longer ones are read as bigints and checked against uint64.
    const digits = text.slice(digitsFrom, at);
    const int = digits.length === 0 ? 0n : BigInt(digits);
    if (digits.length > 18) {
      if (!negative && int >= TWO_64) fail("Value is too big!");
      if (negative && int > TWO_63) fail("Value is too small");
    }
    let fraction = 0;
    let decimals = 0;
    let isFloat = false;
    if (text[at] === ".") {
      isFloat = true;
      at += 1;
      while (isDigit(text.charCodeAt(at))) {
        if (decimals < MAX_DECIMALS) {
          fraction = fraction * 10 + (text.charCodeAt(at) - 48);
          decimals += 1;
        }
        at += 1;
      }
    }
    let exponent: number | undefined;
    if (text[at] === "e" || text[at] === "E") {
      isFloat = true;
      at += 1;
      let sign = 1;
      if (text[at] === "-" || text[at] === "+") {
        sign = text[at] === "-" ? -1 : 1;
        at += 1;
      }
      let e = 0;
      while (isDigit(text.charCodeAt(at))) {
        e = e * 10 + (text.charCodeAt(at) - 48);
        at += 1;
      }
      exponent = e * sign;
    }
    if (at === start) fail("Expected object or value");
    if (!isFloat) return negative ? -int : int;
    if (preciseFloat) {
      const exact = Number(text.slice(start, at));
      const tiny = exact !== 0 && Math.abs(exact) < 2.2250738585072014e-308;
      const underflow = exact === 0 && /[1-9]/.test(text.slice(start, at).split(/[eE]/)[0] ?? "");
      if (!Number.isFinite(exact) || tiny || underflow) fail("Range error when decoding numeric as double");
      return exact;
    }
    const value = (Number(int) + fraction * (POW10[decimals] as number)) * (negative ? -1 : 1);
    // ujson multiplies by C's pow(10, e); V8's Math.pow gives the same doubles for whole powers of ten (1e23 included,
    // where the decimal literal would round the other way).
    return exponent === undefined ? value : value * 10 ** exponent;
  }

  function string(): string {
    at += 1; // the opening quote
    let out = "";
    let from = at;
    for (;;) {
      const c = text.charCodeAt(at);
      if (Number.isNaN(c) || c === 0) fail("Unmatched ''\"' when when decoding 'string'");
      if (c === 34) {
        out += text.slice(from, at);
        at += 1;
        return out;
      }
      if (c !== 92) {
        at += 1;
        continue;
      }
      out += text.slice(from, at);
      const e = text[at + 1];
      at += 2;
      const simple: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };
      if (e !== undefined && e in simple) out += simple[e];
      else if (e === "u") {
        const hex = text.slice(at, at + 4);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail("Unexpected character in unicode escape sequence when decoding 'string'");
        out += String.fromCharCode(Number.parseInt(hex, 16));
        at += 4;
      } else fail("Unrecognized escape sequence when decoding 'string'");
      from = at;
    }
  }

  function value(): PyValue {
    skip();
    const c = text[at];
    if (c === "{" || c === "[") {
      depth += 1;
      if (depth > maxDepth) throw new JsonDecodeError("Reached object decoding depth limit", at, maxDepth);
      const out = c === "{" ? object() : array();
      depth -= 1;
      return out;
    }
    if (c === '"') return string();
    if (c === "t" || c === "f" || c === "n") {
      for (const [word, result] of [
        ["true", true],
        ["false", false],
        ["null", null],
      ] as const) {
        if (text.startsWith(word, at)) {
          at += word.length;
          return result;
        }
      }
      fail(`Unexpected character found when decoding '${c === "t" ? "true" : c === "f" ? "false" : "null"}'`);
    }
    if (c === "-" || c === "I" || c === "N" || (c !== undefined && isDigit(c.charCodeAt(0)))) return number();
    return fail("Expected object or value");
  }

  function array(): PyValue[] {
    at += 1;
    const out: PyValue[] = [];
    skip();
    if (text[at] === "]") {
      at += 1;
      return out;
    }
    for (;;) {
      out.push(value());
      skip();
      const c = text[at];
      at += 1;
      if (c === "]") return out;
      if (c !== ",") fail("Unexpected character found when decoding array value");
    }
  }

  function object(): PyDict {
    at += 1;
    const out: PyDict = new Map();
    skip();
    if (text[at] === "}") {
      at += 1;
      return out;
    }
    for (;;) {
      skip();
      // ujson takes a comma before the closing brace.
      if (text[at] === "}" && out.size > 0) {
        at += 1;
        return out;
      }
      if (text[at] !== '"') fail("Key name of object must be 'string' when decoding 'object'");
      const key = string();
      skip();
      if (text[at] !== ":") fail("No ':' found when decoding object value");
      at += 1;
      out.set(key, value());
      skip();
      const c = text[at];
      at += 1;
      if (c === "}") return out;
      if (c !== ",") fail("Unexpected character found when decoding object value");
    }
  }

  const result = value();
  skip();
  if (at < text.length) fail("Trailing data");
  return result;
}

export const isDict = (v: PyValue | undefined): v is PyDict => v instanceof Map;

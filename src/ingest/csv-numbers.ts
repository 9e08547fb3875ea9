// pandas 1.5's C parser number reading, step for step (tokenizer.c: str_to_int64, str_to_uint64, precise_xstrtod),
// so integers, overflows and floats come out exactly as pandas reads them, rounding included.

const WS = new Set([" ", "\t", "\n", "\v", "\f", "\r"]);
const isDigit = (c: string | undefined) => c !== undefined && c >= "0" && c <= "9";
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;

/** An integer read: its canonical decimal text (sign, no leading zeros, no separators), or why not. */
export type IntRead = { error: "none"; text: string } | { error: "overflow" | "invalid" };

const SHORT = /^[ \t\n\v\f\r]*([+-]?)(\d{1,18})[ \t\n\v\f\r]*$/;

/** str_to_int64 / str_to_uint64's digits: whitespace, a sign, digits with `tsep` anywhere after the first. */
function readInteger(text: string, tsep: string | undefined, min: bigint, max: bigint): IntRead {
  // Up to 18 digits cannot overflow: the common case needs no big arithmetic.
  const short = SHORT.exec(text);
  if (short) {
    const digits = (short[2] as string).replace(/^0+(?=\d)/, "");
    if (short[1] === "-" && min === 0n) return { error: "invalid" };
    return { error: "none", text: short[1] === "-" && digits !== "0" ? `-${digits}` : digits };
  }
  let p = 0;
  while (WS.has(text[p] as string)) p += 1;
  let negative = false;
  if (text[p] === "-") {
    negative = true;
    p += 1;
  } else if (text[p] === "+") p += 1;
  if (!isDigit(text[p])) return { error: "invalid" };
  let value = 0n;
  for (;;) {
    const d = text[p];
    if (tsep !== undefined && d === tsep) {
      p += 1;
      continue;
    }
    if (!isDigit(d)) break;
    value = value * 10n + (negative ? -BigInt(Number(d)) : BigInt(Number(d)));
    if (value < min || value > max) return { error: "overflow" };
    p += 1;
  }
  while (WS.has(text[p] as string)) p += 1;
  return p < text.length ? { error: "invalid" } : { error: "none", text: value.toString() };
}

export const readInt64 = (text: string, tsep: string | undefined): IntRead => readInteger(text, tsep, INT64_MIN, INT64_MAX);

/** str_to_uint64: a leading "-" only notes a signed value (no error, whatever follows). */
export function readUint64(text: string, tsep: string | undefined): IntRead | { error: "signed" } {
  let p = 0;
  while (WS.has(text[p] as string)) p += 1;
  if (text[p] === "-") return { error: "signed" };
  return readInteger(text, tsep, 0n, UINT64_MAX);
}

/** Whether an int64 text exceeds int64 (the uint64 reading of a value past it). */
export const pastInt64 = (text: string) => text.length >= 19 && BigInt(text) > INT64_MAX;

const POWERS = Array.from({ length: 309 }, (_, i) => Number(`1e${i}`));
const MAX_DIGITS = 17;
const INFINITIES: Record<string, number> = {
  inf: Number.POSITIVE_INFINITY,
  "+inf": Number.POSITIVE_INFINITY,
  infinity: Number.POSITIVE_INFINITY,
  "+infinity": Number.POSITIVE_INFINITY,
  "-inf": Number.NEGATIVE_INFINITY,
  "-infinity": Number.NEGATIVE_INFINITY,
};

/**
 * precise_xstrtod as pandas 1.5 calls it (float_precision "high", its default): at most 17 digits are kept, the
 * rest scale by powers of ten, so long decimals round as pandas rounds them. Then inf/Infinity in any case.
 * Undefined when the text is not a float to pandas.
 */
export function readFloat(text: string, decimal: string, tsep: string | undefined): number | undefined {
  let p = 0;
  while (WS.has(text[p] as string)) p += 1;
  let negative = false;
  if (text[p] === "-") {
    negative = true;
    p += 1;
  } else if (text[p] === "+") p += 1;
  let number = 0;
  let exponent = 0;
  let digits = 0;
  let decimals = 0;
  while (isDigit(text[p])) {
    if (digits < MAX_DIGITS) {
      number = number * 10 + Number(text[p]);
      digits += 1;
    } else exponent += 1;
    p += 1;
    if (tsep !== undefined && text[p] === tsep) p += 1;
  }
  if (text[p] === decimal) {
    p += 1;
    while (digits < MAX_DIGITS && isDigit(text[p])) {
      number = number * 10 + Number(text[p]);
      p += 1;
      digits += 1;
      decimals += 1;
    }
    if (digits >= MAX_DIGITS) while (isDigit(text[p])) p += 1;
    exponent -= decimals;
  }
  let error = digits === 0;
  if (!error) {
    if (negative) number = -number;
    if (text[p] === "e" || text[p] === "E") {
      const mark = p;
      p += 1;
      let expNegative = false;
      if (text[p] === "-") {
        expNegative = true;
        p += 1;
      } else if (text[p] === "+") p += 1;
      let n = 0;
      let expDigits = 0;
      while (expDigits < MAX_DIGITS && isDigit(text[p])) {
        n = n * 10 + Number(text[p]);
        expDigits += 1;
        p += 1;
      }
      exponent += expNegative ? -n : n;
      // No digits after the "e": it is not consumed (so the text does not end there).
      if (expDigits === 0) p = mark;
    }
    if (exponent > 308) error = true;
    else if (exponent > 0) number *= POWERS[exponent] as number;
    else if (exponent < -308) number = exponent < -616 ? 0 : number / (POWERS[-308 - exponent] as number) / (POWERS[308] as number);
    else number /= POWERS[-exponent] as number;
    if (!Number.isFinite(number)) error = true;
    while (WS.has(text[p] as string)) p += 1;
  }
  if (!error && p === text.length && p > 0) return number;
  return INFINITIES[text.toLowerCase()];
}

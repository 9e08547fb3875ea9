// Python's and pandas' scalar conversions that read_json relies on: float(str), int(str), repr(float),
// str(Timestamp), and the date strings pandas' to_datetime reads (ISO 8601 forms).

const DIGITS = "\\d(?:_?\\d)*";
const PY_FLOAT = new RegExp(`^[+-]?(?:${DIGITS}(?:\\.(?:${DIGITS})?)?|\\.${DIGITS})(?:[eE][+-]?${DIGITS})?$`);

/** Python's float(s) for text: surrounding whitespace, a sign, digits with single underscores, inf, nan. */
export function pyFloatOf(text: string): number | undefined {
  const s = text.trim();
  if (PY_FLOAT.test(s)) return Number(s.replaceAll("_", ""));
  if (/^[+-]?(inf|infinity)$/i.test(s)) return s.startsWith("-") ? -Infinity : Infinity;
  if (/^[+-]?nan$/i.test(s)) return Number.NaN;
  return undefined;
}

/** Python's int(s) for text: surrounding whitespace, a sign, digits with single underscores. */
export function pyIntOf(text: string): bigint | undefined {
  const s = text.trim();
  if (!/^[+-]?\d(?:_?\d)*$/.test(s)) return undefined;
  return BigInt(s.replaceAll("_", ""));
}

/** Python's repr(float): the shortest digits that read back, in exponent form below 1e-4 and from 1e16. */
export function pyFloatRepr(f: number): string {
  if (Number.isNaN(f)) return "nan";
  if (!Number.isFinite(f)) return f > 0 ? "inf" : "-inf";
  if (f === 0) return Object.is(f, -0) ? "-0.0" : "0.0";
  const [mantissa, exp] = f.toExponential().split("e") as [string, string];
  const e = Number(exp);
  const sign = mantissa.startsWith("-") ? "-" : "";
  const digits = mantissa.replace("-", "").replace(".", "");
  if (e < -4 || e >= 16) {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    return `${sign}${m}e${e < 0 ? "-" : "+"}${String(Math.abs(e)).padStart(2, "0")}`;
  }
  if (e < 0) return `${sign}0.${"0".repeat(-e - 1)}${digits}`;
  const whole = digits.slice(0, e + 1).padEnd(e + 1, "0");
  const rest = digits.slice(e + 1);
  return `${sign}${whole}.${rest || "0"}`;
}

const BILLION = 1_000_000_000n;

/** pandas' str(Timestamp): "2020-01-02 03:04:05", then ".ffffff" (or 9 digits when there are nanoseconds), then the offset. */
export function timestampText(ns: bigint, tz: string | null): string {
  let seconds = ns / BILLION;
  let nanos = ns % BILLION;
  if (nanos < 0n) {
    seconds -= 1n;
    nanos += BILLION;
  }
  const date = new Date(Number(seconds) * 1000).toISOString();
  let text = `${date.slice(0, 10)} ${date.slice(11, 19)}`;
  if (nanos > 0n)
    text += nanos % 1000n === 0n ? `.${(nanos / 1000n).toString().padStart(6, "0")}` : `.${nanos.toString().padStart(9, "0")}`;
  return tz ? `${text}+00:00` : text;
}

/** Strings pandas reads as NaT. */
export const NAT_STRINGS = new Set(["", "NaT", "nat", "NAT", "nan", "NaN", "NAN"]);

export type ParsedDate = { ns: bigint; offset: number | null };

const TIME = "(?:[T ](\\d{2})(?::?(\\d{2})(?::?(\\d{2})(?:\\.(\\d{1,9}))?)?)?)?";
const ZONE = "\\s*(Z|[+-]\\d{2}(?::?\\d{2})?)?";
/** 2020-01-02, 2020/1/2, 20200102, each with an optional time and zone. */
const YEAR_FIRST = new RegExp(`^(\\d{4})(?:([-/])(\\d{1,2})\\2(\\d{1,2})|(\\d{2})(\\d{2}))${TIME}${ZONE}$`);
/** 01/02/2020 (month first, as dateutil reads it; day first when the first number cannot be a month). */
const MONTH_FIRST = new RegExp(`^(\\d{1,2})/(\\d{1,2})/(\\d{4})${TIME}$`);

/**
 * A date or date-time as pandas' to_datetime reads it, for the common forms: ISO 8601 (with - or /, or
 * compact), then optionally T or a space and HH[:MM[:SS[.fraction]]], then optionally Z or an offset; and
 * M/D/YYYY with an optional time. Other forms (which pandas reads with dateutil) are not read: undefined.
 */
export function parseIsoDate(text: string): ParsedDate | undefined {
  const t = text.trim();
  let year: string;
  let month: string;
  let day: string;
  let time: (string | undefined)[];
  let zone: string | undefined;
  const y = YEAR_FIRST.exec(t);
  const m = y ? undefined : MONTH_FIRST.exec(t);
  if (y) {
    year = y[1] as string;
    month = (y[3] ?? y[5]) as string;
    day = (y[4] ?? y[6]) as string;
    time = y.slice(7, 11);
    zone = y[11];
  } else if (m) {
    const [first, second] = [Number(m[1]), Number(m[2])];
    [month, day] = first > 12 && second <= 12 ? [m[2] as string, m[1] as string] : [m[1] as string, m[2] as string];
    year = m[3] as string;
    time = m.slice(4, 8);
  } else return undefined;
  const [h = "0", mi = "0", sec = "0", frac = ""] = time;
  const [mo, d] = [Number(month), Number(day)];
  if (mo < 1 || mo > 12 || d < 1 || Number(h) > 23 || Number(mi) > 59 || Number(sec) > 59) return undefined;
  const date = new Date(0);
  date.setUTCFullYear(Number(year), mo - 1, d);
  date.setUTCHours(Number(h), Number(mi), Number(sec), 0);
  if (date.getUTCDate() !== d || date.getUTCMonth() !== mo - 1) return undefined;
  let offset: number | null = null;
  if (zone) {
    if (zone === "Z") offset = 0;
    else {
      const z = /^([+-])(\d{2}):?(\d{2})?$/.exec(zone);
      offset = (z?.[1] === "-" ? -1 : 1) * (Number(z?.[2]) * 60 + Number(z?.[3] ?? 0));
    }
  }
  const ns = BigInt(date.getTime()) * 1_000_000n + BigInt(frac.padEnd(9, "0") || "0") - BigInt(offset ?? 0) * 60n * BILLION;
  return { ns, offset };
}

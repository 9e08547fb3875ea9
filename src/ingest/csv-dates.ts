// parse_dates as pandas 1.5 does it: a column becomes datetime64[ns] when every value parses, else it stays text.
import pl from "nodejs-polars";
import { integerSeries } from "./csv-infer.ts";

const ISO = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9})\d*)?)?\s*(Z|[+-]\d{2}:?\d{2})?)?$/;
const COMPACT = /^(\d{4})(\d{2})(\d{2})$/;
const US = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;

/** The bounds of datetime64[ns]: pandas leaves a column with a date outside them as text. */
const MIN_NS = -9223372036854775808n + 1n;
const MAX_NS = 9223372036854775807n;

type Parsed = { ns: bigint; offset: string | null };

function daysFromCivil(y: number, m: number, d: number): number {
  const t = Date.UTC(y, m - 1, d);
  const back = new Date(t);
  // Date.UTC rolls 2024-02-30 over into March: such a day does not exist.
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== m - 1 || back.getUTCDate() !== d) return Number.NaN;
  return t / 86_400_000;
}

/** One value: ISO dates and times (T or space, fractions to the nanosecond, Z or an offset), YYYYMMDD, MM/DD/YYYY. */
export function parseDateText(raw: string): Parsed | undefined {
  const text = raw.trim();
  let y: number;
  let mo: number;
  let d: number;
  let time: RegExpExecArray | undefined;
  const iso = ISO.exec(text);
  if (iso) {
    [y, mo, d] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
    time = iso;
  } else {
    const compact = COMPACT.exec(text);
    const us = compact ? undefined : US.exec(text);
    if (compact) [y, mo, d] = [Number(compact[1]), Number(compact[2]), Number(compact[3])];
    else if (us) [mo, d, y] = [Number(us[1]), Number(us[2]), Number(us[3])];
    else return undefined;
  }
  const days = daysFromCivil(y, mo, d);
  if (Number.isNaN(days)) return undefined;
  let ns = BigInt(days) * 86_400_000_000_000n;
  let offset: string | null = null;
  if (time?.[4] !== undefined) {
    const [h, mi, s] = [Number(time[4]), Number(time[5]), Number(time[6] ?? 0)];
    if (h > 23 || mi > 59 || s > 59) return undefined;
    ns += BigInt(h * 3600 + mi * 60 + s) * 1_000_000_000n + BigInt((time[7] ?? "").padEnd(9, "0") || "0");
    const zone = time[8];
    if (zone === "Z") offset = "UTC";
    else if (zone) {
      const sign = zone[0] === "-" ? -1 : 1;
      const digits = zone.slice(1).replace(":", "");
      const minutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2));
      ns -= BigInt(sign * minutes) * 60_000_000_000n;
      offset = minutes === 0 ? "UTC" : `${sign < 0 ? "-" : "+"}${digits.slice(0, 2)}:${digits.slice(2)}`;
    }
  }
  if (ns < MIN_NS || ns > MAX_NS) return undefined;
  return { ns, offset };
}

/**
 * polars takes no "+01:00" zone: a whole-hour offset is stored as its Etc/GMT zone (the sign is reversed there),
 * and reported with pandas 1.5's name for it. Other offsets: undefined (the column stays text).
 */
function storedZone(offset: string): { zone: string; dtype: string } | undefined {
  if (offset === "UTC") return { zone: "UTC", dtype: "datetime64[ns, UTC]" };
  const [, sign, hh, mm] = /^([+-])(\d{2}):(\d{2})$/.exec(offset) ?? [];
  if (!sign || mm !== "00") return undefined;
  const hours = Number(hh);
  return {
    zone: `Etc/GMT${sign === "+" ? "-" : "+"}${hours}`,
    dtype: `datetime64[ns, pytz.FixedOffset(${(sign === "+" ? 1 : -1) * hours * 60})]`,
  };
}

/**
 * The column as datetime64[ns] (UTC or a fixed offset when every value carries the same one), with its pandas
 * dtype name, or undefined when a value does not parse or the zones differ: pandas then leaves it as it was.
 */
export function parseDateColumn(name: string, values: readonly (string | null)[]): { series: pl.Series; dtype: string } | undefined {
  const out: (bigint | null)[] = [];
  let zone: string | null | undefined;
  for (const value of values) {
    if (value === null) {
      out.push(null);
      continue;
    }
    const parsed = parseDateText(value);
    if (!parsed) return undefined;
    if (zone === undefined) zone = parsed.offset;
    else if (zone !== parsed.offset) return undefined;
    out.push(parsed.ns);
  }
  const series = integerSeries(name, out, pl.Int64).cast(pl.Datetime("ns"));
  if (!zone) return { series, dtype: "datetime64[ns]" };
  const stored = storedZone(zone);
  if (!stored) return undefined;
  return { series: series.dt.replaceTimeZone("UTC").dt.convertTimeZone(stored.zone), dtype: stored.dtype };
}

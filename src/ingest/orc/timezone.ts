// Resolves an ORC writer time zone name to the UTC instant of its 2015-01-01 00:00:00 timestamp epoch.

/** 2015-01-01T00:00:00Z in seconds: the ORC timestamp epoch for UTC. */
export const ORC_EPOCH_UTC = 1420070400;

const cache = new Map<string, number>();

/** Offset of `zone` from UTC at the instant `utcSeconds`, in seconds, via Intl (full ICU ships with Node). */
function zoneOffset(format: Intl.DateTimeFormat, utcSeconds: number): number {
  const parts: Record<string, number> = {};
  for (const p of format.formatToParts(new Date(utcSeconds * 1000))) {
    if (p.type !== "literal") parts[p.type] = Number(p.value);
  }
  const wall = Date.UTC(parts.year ?? 1970, (parts.month ?? 1) - 1, parts.day ?? 1, parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0);
  return wall / 1000 - utcSeconds;
}

/** Fixed offsets Intl may not know, such as "GMT+08:00" or "UTC-5". */
function fixedOffset(zone: string): number | undefined {
  const m = /^(?:GMT|UTC)?([+-])(\d{1,2})(?::?(\d{2}))?$/.exec(zone.trim());
  if (m === null) return undefined;
  const seconds = Number(m[2]) * 3600 + Number(m[3] ?? 0) * 60;
  return m[1] === "-" ? -seconds : seconds;
}

/**
 * The UTC second at which 2015-01-01 00:00:00 happened in the writer's zone. ORC stores timestamp seconds
 * relative to that instant, so value + this = the UTC instant (the ORC C++ reader's semantics). Files without a
 * writer zone (ORC 0.11) and zone names we cannot resolve are read as UTC: the C++ reader would use the process's
 * local zone instead, which would make the result depend on where it runs.
 */
export function writerEpoch(zone: string | undefined): number {
  if (zone === undefined || zone === "") return ORC_EPOCH_UTC;
  const cached = cache.get(zone);
  if (cached !== undefined) return cached;
  let epoch = ORC_EPOCH_UTC;
  const fixed = fixedOffset(zone);
  if (fixed !== undefined) {
    epoch = ORC_EPOCH_UTC - fixed;
  } else {
    try {
      const format = new Intl.DateTimeFormat("en-US", {
        timeZone: zone,
        hourCycle: "h23",
        year: "numeric",
        month: "numeric",
        day: "numeric",
        hour: "numeric",
        minute: "numeric",
        second: "numeric",
      });
      // Local midnight = UTC midnight minus the offset; refine once in case the offset differs at that instant.
      const guess = ORC_EPOCH_UTC - zoneOffset(format, ORC_EPOCH_UTC);
      epoch = ORC_EPOCH_UTC - zoneOffset(format, guess);
    } catch {
      epoch = ORC_EPOCH_UTC; // unknown zone name: read as UTC (see above)
    }
  }
  cache.set(zone, epoch);
  return epoch;
}

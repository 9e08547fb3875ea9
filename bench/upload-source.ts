// The bytes a bench client uploads: the file as fast as it reads, or (BENCH_UPLOAD_MBPS) paced to a link of that
// many megabytes a second, as a client on another machine sends them; the bound's bare server gets the same pace.
import { createReadStream } from "node:fs";
import { type Readable, Transform } from "node:stream";

/** BENCH_UPLOAD_MBPS: the pace of every upload, in MB/s (10^6 bytes); unset or 0, as fast as the file reads. */
export const UPLOAD_MBPS = Number(process.env.BENCH_UPLOAD_MBPS ?? 0);

/** Passes chunks on no faster than `mbps` MB/s since its first chunk. */
function paced(mbps: number): Transform {
  let started = 0;
  let sent = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      started ||= performance.now();
      sent += chunk.length;
      const due = started + sent / (mbps * 1000) - performance.now();
      if (due <= 0) done(null, chunk);
      else setTimeout(() => done(null, chunk), due);
    },
  });
}

/** A readable of `file` for an upload's body. */
export function uploadSource(file: string): Readable {
  const stream = createReadStream(file, { highWaterMark: 1 << 20 });
  return UPLOAD_MBPS > 0 ? stream.pipe(paced(UPLOAD_MBPS)) : stream;
}

// What a failed parse tells the uploader: a clear message, never a native library's panic text or a stack.
import { type AppErrorCode, isAppError } from "../errors/app-error.ts";

/** Text of a Rust panic or a native library's internals (polars, arrow-rs; a Debug-printed error struct), not for users. */
const NATIVE =
  /panicked|unwrap\(\)|expect\(\)|\.rs:\d+|RUST_BACKTRACE|PanicException|entered unreachable code|index out of bounds|stack backtrace|JoinError|\w\(Error \{/;

/** RangeErrors that mean the file asked for more than one process can hold. */
const EXHAUSTED = /Invalid string length|Invalid array length|Array buffer allocation failed|allocation failed|Invalid typed array length/;

export type PublicFailure = { code: AppErrorCode; message: string; logged?: string };

/**
 * The code and message a parse failure is answered with. AppErrors keep theirs, unless the message carries
 * native text: then it keeps what comes before it. Other errors are the file's doing too (a reader giving
 * up on it): too deep or too large for the process (413), or unreadable (422); system call failures stay
 * INTERNAL. What is left out of the message is `logged`.
 */
export function publicFailure(error: unknown): PublicFailure {
  if (isAppError(error)) {
    const at = error.message.search(NATIVE);
    if (at < 0) return { code: error.code, message: error.message };
    const cut = error.message.lastIndexOf(": ", at);
    const lead = cut > 0 ? error.message.slice(0, cut) : "the file could not be parsed";
    return { code: error.code, message: `${lead}: the reader failed on the file's contents`, logged: error.message };
  }
  const text = error instanceof Error ? `${error.name}: ${error.message}\n${error.stack ?? ""}` : String(error);
  // The server's own trouble (a full disk, a missing folder), not the file's: still a 500.
  if (typeof (error as { syscall?: unknown })?.syscall === "string") return { code: "INTERNAL", message: String((error as Error).message) };
  if (error instanceof RangeError && /call stack/.test(error.message)) {
    return { code: "PAYLOAD_TOO_LARGE", message: "the file is nested or shaped too deeply for the parser", logged: text };
  }
  if (error instanceof RangeError && EXHAUSTED.test(error.message)) {
    return { code: "PAYLOAD_TOO_LARGE", message: "the file holds more data than one parser process can hold", logged: text };
  }
  return { code: "PARSE_FAILED", message: "the file could not be parsed: the reader failed on its contents", logged: text };
}

// A CSV tokenizer with the rules of pandas' C parser (quotes, doubled quotes, comments, blank lines, whitespace
// separators), for reads that polars' reader cannot do the pandas way.
import { AppError } from "../errors/app-error.ts";

export type TokenizeOptions = {
  /** One separator character, or "whitespace" for runs of spaces and tabs (delim_whitespace). */
  sep: string;
  /** The quote character; undefined when quoting is off (QUOTE_NONE). */
  quote: string | undefined;
  doublequote: boolean;
  skipInitialSpace: boolean;
  /** A single line-end character (lineterminator); undefined: \n, \r\n and \r all end lines. */
  eol: string | undefined;
  comment: string | undefined;
  skipBlankLines: boolean;
};

/** One record: its fields and the line it starts on (1-based, as pandas counts in its messages). */
export type Row = { fields: string[]; line: number };

const failed = (message: string, line: number) =>
  new AppError("PARSE_FAILED", `CSV could not be parsed: ${message}`, { details: { format: "csv", row: line } });

/** Line ends in a quoted part (\r\n once), for the line numbers of pandas' messages. */
function countLineEnds(part: string): number {
  let count = 0;
  for (let at = part.indexOf("\n"); at !== -1; at = part.indexOf("\n", at + 1)) count += 1;
  for (let at = part.indexOf("\r"); at !== -1; at = part.indexOf("\r", at + 1)) if (part[at + 1] !== "\n") count += 1;
  return count;
}

/** The first `limit` records of the text. */
export function tokenize(input: string, o: TokenizeOptions, limit = Number.POSITIVE_INFINITY): Row[] {
  const rows: Row[] = [];
  tokenizeEach(input, o, (fields, line) => {
    rows.push({ fields, line });
    return rows.length < limit;
  });
  return rows;
}

/** Where a piece of text stopped: the end of its last whole record, the line there, whether `onRow` said stop. */
export type Progress = { consumed: number; line: number; count: number; stopped: boolean };

/**
 * Hands each record of the text to `onRow`, in order, until it answers false. A text that is one piece of a
 * longer file (`final` false) stops before a record it may hold only part of, and says where: the caller
 * puts that rest in front of the next piece. The file's leading byte-order mark is dropped, as pandas does.
 */
export function tokenizeEach(
  input: string,
  o: TokenizeOptions,
  onRow: (fields: string[], line: number) => boolean,
  piece: { final: boolean; line: number; count: number; first: boolean } = { final: true, line: 1, count: 0, first: true },
): Progress {
  const text = input;
  const final = piece.final;
  let count = piece.count;
  const whitespace = o.sep === "whitespace";
  // A \r at the end of a piece may be half of a \r\n: it waits for the next piece.
  const n = !final && !o.eol && text.endsWith("\r") ? text.length - 1 : text.length;
  let i = piece.first && text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = piece.line;
  let recordAt = i;
  let recordLine = line;
  /** The record begun at recordAt is cut by the end of this piece. */
  const unfinished = (): Progress => ({ consumed: recordAt, line: recordLine, count, stopped: false });
  const isEol = (c: string) => (o.eol ? c === o.eol : c === "\n" || c === "\r");
  /** Steps over the line end at i (\r\n as one). */
  const endLine = () => {
    if (!o.eol && text[i] === "\r" && text[i + 1] === "\n") i += 1;
    i += 1;
    line += 1;
  };
  const isSpace = (c: string | undefined) => c === " " || c === "\t";
  const inClass = (c: string) => c.replace(/[\\^\]-]/g, "\\$&");
  const specials = [whitespace ? " \t" : o.sep, o.eol ?? "\n\r", o.comment ?? ""].join("");
  /** The characters that end plain text in a field. */
  const special = new RegExp(`[${[...specials].map(inClass).join("")}]`, "g");
  let going = true;
  while (i < n && going) {
    const start = line;
    recordAt = i;
    recordLine = line;
    // Start of a record: blank lines and comment lines.
    if (whitespace) while (i < n && isSpace(text[i])) i += 1;
    if (i >= n) break;
    let c = text[i] as string;
    if (isEol(c)) {
      endLine();
      if (!o.skipBlankLines) {
        going = onRow([""], start);
        count += 1;
      }
      continue;
    }
    if (o.comment && c === o.comment) {
      while (i < n && !isEol(text[i] as string)) i += 1;
      if (i >= n && !final) return unfinished();
      if (i < n) endLine();
      continue;
    }
    const fields: string[] = [];
    let field = "";
    let state: "start" | "field" | "quoted" | "quote-in-quoted" = "start";
    let done = false;
    while (!done) {
      if (i >= n) {
        if (!final) return unfinished();
        if (state === "quoted") throw failed(`EOF inside string starting at row ${count + 1}`, start);
        fields.push(field);
        break;
      }
      c = text[i] as string;
      switch (state) {
        case "start":
          if (o.quote !== undefined && c === o.quote) {
            state = "quoted";
            i += 1;
          } else if (o.skipInitialSpace && c === " ") {
            i += 1;
          } else {
            state = "field";
          }
          break;
        case "field":
          if (whitespace ? isSpace(c) : c === o.sep) {
            fields.push(field);
            field = "";
            i += 1;
            if (whitespace) {
              while (i < n && isSpace(text[i])) i += 1;
              // Trailing whitespace ends the record, not a field.
              if (i >= n && !final) return unfinished();
              if (i >= n || isEol(text[i] as string)) {
                if (i < n) endLine();
                done = true;
                break;
              }
            }
            state = "start";
          } else if (isEol(c)) {
            fields.push(field);
            endLine();
            done = true;
          } else if (o.comment && c === o.comment) {
            while (i < n && !isEol(text[i] as string)) i += 1;
            if (i >= n && !final) return unfinished();
            fields.push(field);
            if (i < n) endLine();
            done = true;
          } else {
            // Plain text up to the next character that means something here, in one slice.
            special.lastIndex = i + 1;
            const next = special.test(text) ? special.lastIndex - 1 : n;
            field += text.slice(i, next);
            i = next;
          }
          break;
        case "quoted":
          if (c === o.quote) {
            // Without doublequote the quote only closes the quoted part; what follows is read as plain text.
            state = o.doublequote ? "quote-in-quoted" : "field";
            i += 1;
          } else {
            const close = text.indexOf(o.quote as string, i);
            const end = close === -1 ? n : close;
            const part = text.slice(i, end);
            field += part;
            line += countLineEnds(part);
            i = end;
          }
          break;
        case "quote-in-quoted":
          if (c === o.quote) {
            field += c;
            state = "quoted";
            i += 1;
          } else {
            state = "field";
          }
          break;
      }
    }
    going = onRow(fields, start);
    count += 1;
  }
  if (!going) return { consumed: i, line, count, stopped: true };
  return { consumed: i >= n ? n : i, line, count, stopped: false };
}

// The CSV tokenizer read in pieces gives the records it gives read whole, wherever the pieces are cut.
import { describe, expect, it } from "vitest";
import { type Row, type TokenizeOptions, tokenize, tokenizeEach } from "../../src/ingest/csv-tokenize.ts";

const BASE: TokenizeOptions = {
  sep: ",",
  quote: '"',
  doublequote: true,
  skipInitialSpace: false,
  eol: undefined,
  comment: undefined,
  skipBlankLines: true,
};

/** Tokenizes `text` cut at `cuts`, carrying each piece's unfinished record into the next, as csv.ts does. */
function inPieces(text: string, cuts: number[], o: TokenizeOptions): Row[] {
  const rows: Row[] = [];
  const onRow = (fields: string[], line: number) => {
    rows.push({ fields, line });
    return true;
  };
  let carry = "";
  let progress = { line: 1, count: 0 };
  let from = 0;
  let first = true;
  [...cuts, text.length].forEach((to, i, all) => {
    const piece = carry + text.slice(from, to);
    const final = i === all.length - 1;
    const p = tokenizeEach(piece, o, onRow, { final, line: progress.line, count: progress.count, first });
    // The file's start (and its byte-order mark) is in the first piece that holds anything.
    if (piece.length > 0 && p.consumed > 0) first = false;
    progress = p;
    carry = piece.slice(p.consumed);
    from = to;
  });
  return rows;
}

const TEXTS: [string, Partial<TokenizeOptions>][] = [
  ['a,b\r\n"x,\r\ny",2\r\n\r\n"q""r",3\r\nlast,4', {}],
  ["a,b\n1,2#note\n#whole line\n3,4\n", { comment: "#" }],
  ["a  b\n 1   2  \n3\t4\n", { sep: "whitespace" }],
  ["a,b\n1,2\n\n\n3,4\r\r5,6", { skipBlankLines: false }],
  ['\ufeffa;b|"1;2";x|3;4|', { sep: ";", eol: "|" }],
  ['a,b\n"x"y,2\n"open', {}],
];

describe("tokenizer pieces", () => {
  it.each(TEXTS)("reads %j the same cut anywhere", (text, options) => {
    const o = { ...BASE, ...options };
    let whole: Row[] | Error;
    try {
      whole = tokenize(text, o);
    } catch (error) {
      whole = error as Error;
    }
    for (let cut = 0; cut <= text.length; cut += 1) {
      for (const second of [cut, Math.min(text.length, cut + 3)]) {
        const read = () => inPieces(text, second > cut ? [cut, second] : [cut], o);
        if (whole instanceof Error) expect(read).toThrow(whole.message);
        else expect(read()).toEqual(whole);
      }
    }
  });
});

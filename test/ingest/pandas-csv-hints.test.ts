// datetime64 dtype hints for the formats whose pandas reader accepts them (read_json's astype): text is parsed
// value by value, in the unit and zone asked for, as pandas gives them (read_csv refuses them, see pandas-csv).
import { tableFromIPC } from "apache-arrow";
import pl from "nodejs-polars";
import { describe, expect, it } from "vitest";
import { applyDtypeHints, readDtypeHints } from "../../src/ingest/dtype-hints.ts";
import { pandasDtypes } from "../../src/ingest/dtype-names.ts";
import { arrowReading, PANDAS_PYTHON, PANDAS_SKIP_REASON, pandasRead } from "../helpers/pandas-reference.ts";

const RECORDS = '[{"d":"2024-01-02"},{"d":"2024-01-03 04:05:06"},{"d":"2024-01-04T05:06:07.5"},{"d":null}]';

describe.skipIf(!PANDAS_PYTHON)(`datetime dtype hints against pandas' read_json${PANDAS_SKIP_REASON}`, () => {
  it.each(["datetime64[ns]", "datetime64", "datetime64[ns, UTC]"])("%s parses mixed forms of text as pandas does", async (hint) => {
    const expected = await pandasRead({ format: "json", bytes: RECORDS, options: { dtype: { d: hint } } });
    const frame = applyDtypeHints(
      pl.DataFrame({ d: ["2024-01-02", "2024-01-03 04:05:06", "2024-01-04T05:06:07.5", null] }),
      readDtypeHints({ d: hint }),
    );
    const table = tableFromIPC(frame.writeIPC());
    expect(arrowReading(table as never, pandasDtypes(table.schema.fields, frame), "None")).toEqual(expected);
  });

  it("keeps the unit asked for (datetime64[ms] is milliseconds, not microseconds)", () => {
    const frame = applyDtypeHints(pl.DataFrame({ d: ["2024-01-02 00:00:00.123"] }), readDtypeHints({ d: "datetime64[ms]" }));
    const table = tableFromIPC(frame.writeIPC());
    expect(pandasDtypes(table.schema.fields, frame)).toEqual({ d: "datetime64[ms]" });
  });
});

// The differential harness itself: pandas and the service read the same bytes into the same comparable form.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { PANDAS_PYTHON, PANDAS_SKIP_REASON, pandasRead, serviceReadDirect, serviceReadFile } from "../helpers/pandas-reference.ts";

describe.skipIf(!PANDAS_PYTHON)(`pandas reference harness${PANDAS_SKIP_REASON}`, () => {
  let gw: TestGateway;
  let token: string;
  beforeAll(async () => {
    gw = await createTestGateway("sqlite");
    token = await gw.login();
  });
  afterAll(() => gw?.close());

  it("reads plain typed CSV the same way through pandas, the files route and the direct route", async () => {
    const request = { format: "csv" as const, bytes: "i,f,s,b\n1,1.5,x,True\n-2,0.1,,False\n" };
    const expected = await pandasRead(request);
    expect(expected).toEqual({
      ok: true,
      columns: ["i", "f", "s", "b"],
      dtypes: ["int64", "float64", "object", "bool"],
      values: [
        ["int:1", "int:-2"],
        ["float:1.5", "float:0.1"],
        ["str:x", "NaN"],
        ["bool:True", "bool:False"],
      ],
    });
    expect(await serviceReadFile(gw, token, request)).toEqual(expected);
    expect(await serviceReadDirect(gw, token, request, "i")).toEqual(expected);
  });

  it("tells pandas' missing values apart and keeps big integers exact", async () => {
    const request = {
      format: "csv" as const,
      bytes: "u,t\n18446744073709551615,2024-01-02 03:04:05.123456789\n1,\n",
      options: { parse_dates: ["t"] },
    };
    expect(await pandasRead(request)).toEqual({
      ok: true,
      columns: ["u", "t"],
      dtypes: ["uint64", "datetime64[ns]"],
      values: [
        ["int:18446744073709551615", "int:1"],
        ["ts:2024-01-02T03:04:05.123456789", "NaT"],
      ],
    });
  });

  it("answers pandas' refusal as an error", async () => {
    const answer = await pandasRead({ format: "csv", bytes: "a\n1\n", options: { usecols: ["zz"] } });
    expect(answer).toMatchObject({ ok: false, error: "ValueError" });
  });
});

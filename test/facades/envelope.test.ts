// The list envelope every list route shares: count, absolute next/previous from limit/offset.
import { describe, expect, it } from "vitest";
import { listEnvelope, readPage } from "../../facades/rest/envelope.ts";

const url = new URL("http://host.example/api/v2/files/?limit=2&offset=2&x=1");

describe("list envelope", () => {
  it("links to the next and previous pages with absolute URLs", () => {
    const page = readPage(url);
    expect(page).toEqual({ ok: true, page: { limit: 2, offset: 2 } });
    if (!page.ok) return;
    const envelope = listEnvelope(["c", "d"], 5, page.page, url);
    expect(envelope).toEqual({
      count: 5,
      next: "http://host.example/api/v2/files/?limit=2&offset=4&x=1",
      previous: "http://host.example/api/v2/files/?limit=2&x=1",
      results: ["c", "d"],
    });
  });

  it("has no next on the last page and no previous on the first", () => {
    const first = listEnvelope([1], 1, { limit: 10, offset: 0 }, new URL("http://h/list/"));
    expect(first.next).toBeNull();
    expect(first.previous).toBeNull();
  });

  it("refuses bad limit and offset values, naming them", () => {
    expect(readPage(new URL("http://h/?limit=0"))).toMatchObject({ ok: false, field: "limit" });
    expect(readPage(new URL("http://h/?limit=abc"))).toMatchObject({ ok: false, field: "limit" });
    expect(readPage(new URL("http://h/?offset=-1"))).toMatchObject({ ok: false, field: "offset" });
    expect(readPage(new URL("http://h/"))).toEqual({ ok: true, page: { limit: 100, offset: 0 } });
  });
});

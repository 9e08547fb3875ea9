// Reads the dataset and session ids the page was opened with (graph.html?dataset=<id>&session=<id>).

/** `showCollections=false` (pygraphistry's URL parameter) keeps the collections panel closed; they still paint. */
export type PageParams = { dataset: string | undefined; session: string | undefined; showCollections: boolean };

export function readPageParams(search: string = location.search): PageParams {
  const params = new URLSearchParams(search);
  const value = (name: string) => {
    const raw = params.get(name)?.trim();
    return raw ? raw : undefined;
  };
  return { dataset: value("dataset"), session: value("session"), showCollections: value("showCollections")?.toLowerCase() !== "false" };
}

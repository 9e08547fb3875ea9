// Layouts as compute jobs (GraphQL runComputeJob with a layout's library and name): the job stores the positions
// as node columns x, y of the dataset's next version, in node-row order; bad layout parameters answer 400 at once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readTable } from "../../src/ingest/table-files.ts";
import { csvEdgeDataset } from "../helpers/datasets.ts";
import { createTestGateway, type TestGateway } from "../helpers/gateway.ts";

const RUN = `mutation($i: RunComputeJobInput!) { runComputeJob(input: $i) { id status label library alg } }`;
const JOB = `query($id: ID!) { computeJob(id: $id) { status errorCode error dataVersion } }`;

type Job = { status: string; errorCode: string | null; error: string | null; dataVersion: string | null };

describe("layouts as compute jobs", () => {
  let gw: TestGateway;
  let alice: string;
  let dataset: string;

  beforeAll(async () => {
    gw = await createTestGateway("sqlite");
    ({ alice } = (await gw.users("alice")) as { alice: string });
    dataset = await csvEdgeDataset(gw, alice, "s,d\na,b\nb,c\nc,a\nc,d\ne,f\n");
  }, 60_000);
  afterAll(() => gw?.close());

  async function finished(id: string): Promise<Job> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const { body } = await gw.graphql<{ computeJob: Job }>(JOB, { id }, alice);
      const job = body.data?.computeJob as Job;
      if (!["QUEUED", "RUNNING"].includes(job.status) || Date.now() > deadline) return job;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it("runs igraph circle as a job: x, y in node-row order on the new version", async () => {
    const started = await gw.graphql<{ runComputeJob: { id: string; library: string; alg: string } }>(
      RUN,
      { i: { datasetId: dataset, library: "igraph", alg: "circle", directed: false } },
      alice,
    );
    expect(started.body.errors).toBeUndefined();
    expect(started.body.data?.runComputeJob).toMatchObject({ library: "igraph", alg: "circle" });
    const job = await finished(started.body.data?.runComputeJob.id as string);
    expect(job).toMatchObject({ status: "SUCCEEDED", errorCode: null });
    const { datasets } = gw.gateway.services;
    const record = await datasets.getForSession(dataset);
    expect(record.dataVersion).toBe(job.dataVersion);
    const nodes = readTable(datasets.tablePaths(record).nodes as string);
    // the materialized node table (sources first, then the other destinations); positions follow its rows
    expect(nodes.getColumn("node").toArray()).toEqual(["a", "b", "c", "e", "d", "f"]);
    const xs = nodes.getColumn("x").toArray() as number[];
    const ys = nodes.getColumn("y").toArray() as number[];
    for (let i = 0; i < 6; i++) {
      expect(xs[i]).toBeCloseTo(Math.cos((2 * Math.PI * i) / 6), 12);
      expect(ys[i]).toBeCloseTo(Math.sin((2 * Math.PI * i) / 6), 12);
    }
  });

  it("answers 400 naming the field for a bad layout parameter, and runs no job", async () => {
    const bad = await gw.graphql(
      RUN,
      { i: { datasetId: dataset, library: "cugraph", alg: "force_atlas2", params: { max_iter: -1 } } },
      alice,
    );
    expect(bad.body.errors?.[0]?.extensions).toMatchObject({ code: "INVALID_INPUT", details: { field: "input.params.max_iter" } });
    const unknown = await gw.graphql(RUN, { i: { datasetId: dataset, library: "igraph", alg: "circle_nope" } }, alice);
    expect(unknown.body.errors?.[0]?.extensions).toMatchObject({ code: "INVALID_INPUT", details: { field: "input.alg" } });
  });

  it("fails a job whose layout names a node the tables lack, and the dataset keeps its version", async () => {
    const { datasets } = gw.gateway.services;
    const before = (await datasets.getForSession(dataset)).dataVersion;
    const started = await gw.graphql<{ runComputeJob: { id: string } }>(
      RUN,
      { i: { datasetId: dataset, library: "igraph", alg: "circle", params: { order: ["a", "zz"] } } },
      alice,
    );
    const job = await finished(started.body.data?.runComputeJob.id as string);
    expect(job).toMatchObject({ status: "FAILED", errorCode: "INVALID_INPUT", dataVersion: null });
    expect(job.error).toContain("zz");
    expect((await datasets.getForSession(dataset)).dataVersion).toBe(before);
  });
});

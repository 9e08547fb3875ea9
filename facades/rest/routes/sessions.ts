// Live sessions (spec 4.5) and dataset sharing (the clients' api/v2/share/link/).
import { GET_SESSION, LIST_SESSIONS, SHARE_DATASET } from "../operations.ts";
import type { RestRoute } from "../route-types.ts";

type SessionData = { id: string; revision: { id: string; dataset: { id: string } } };

/** spec 2.7: {session_id, revision: {revision_id, dataset: {dataset_id}}} */
const sessionBody = (s: SessionData) => ({
  session_id: s.id,
  revision: { revision_id: s.revision.id, dataset: { dataset_id: s.revision.dataset.id } },
});

export const SESSION_ROUTES: readonly RestRoute[] = [
  {
    path: "/api/experimental/viz/sessions/",
    methods: ["GET"],
    document: LIST_SESSIONS,
    variables: () => ({}),
    shape: (data) => ({ body: { results: data.vizSessions.map(sessionBody) } }),
  },
  {
    path: "/api/experimental/viz/sessions/:id/",
    methods: ["GET"],
    document: GET_SESSION,
    variables: ({ params }) => ({ id: params.id }),
    shape: (data) => ({ body: sessionBody(data.vizSession) }),
  },
  {
    path: "/api/v2/share/link/",
    methods: ["POST"],
    body: { schema: "share-link-body", required: true },
    document: SHARE_DATASET,
    variables: ({ body }) => ({ datasetId: body.obj_pk, mode: body.mode }),
    shape: (data, { body }) => ({ body: { success: true, data: { obj_pk: body.obj_pk, obj_type: "dataset", mode: data.shareDataset } } }),
  },
];

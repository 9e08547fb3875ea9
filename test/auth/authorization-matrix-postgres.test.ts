// The authorization matrix (test/auth/authorization-matrix.ts) against a server on a fresh Postgres database, dropped
// after: the same table, another store.
import { describeAuthorizationMatrix } from "./authorization-matrix.ts";

describeAuthorizationMatrix("postgres");

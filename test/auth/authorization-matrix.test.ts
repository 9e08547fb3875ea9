// The authorization matrix (test/auth/authorization-matrix.ts) against a server on a fresh SQLite database.
import { describeAuthorizationMatrix } from "./authorization-matrix.ts";

describeAuthorizationMatrix("sqlite");

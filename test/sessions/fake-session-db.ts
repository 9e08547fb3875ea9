// A stand-in for the Prisma client's session reads in unit tests: rows by id, and the reads it was asked for.
import type { Db } from "../../src/store/prisma.ts";

export type Row = { id: string; datasetId: string; ownerId: number; revisionNumber: number };

export function fakeDb(rows: Row[]) {
  const reads: string[] = [];
  const db = {
    vizSession: {
      findUnique: async ({ where: { id } }: { where: { id: string } }) => {
        reads.push(id);
        const row = rows.find((r) => r.id === id);
        return row ? { ...row } : null;
      },
    },
  } as unknown as Db;
  return { db, reads };
}

// The SQLite adapter with its interactive transactions on the one connection every other statement uses.
//
// @libsql/client runs a transaction on its current connection and opens a new one for whatever comes next, and the
// transaction's connection is dropped when it ends: every transaction opened a connection (about 0.4 ms, and each
// statement on it prepared against a schema read afresh), and each new connection lost the `busy_timeout` set at start.
// Prisma's adapter holds its lock for the whole of a transaction (no other statement of this client runs meanwhile),
// so the transaction can as well run on the shared connection: BEGIN, its statements, COMMIT or ROLLBACK there.
import { PrismaLibSql } from "@prisma/adapter-libsql";

type Client = ReturnType<PrismaLibSql["createClient"]>;
type Transaction = Awaited<ReturnType<Client["transaction"]>>;
type Statement = Parameters<Client["execute"]>[0];

const BEGIN: Record<string, string> = { write: "BEGIN IMMEDIATE", read: "BEGIN TRANSACTION READONLY", deferred: "BEGIN DEFERRED" };

/** A client whose transaction() runs on the client's own connection (see above). */
export function oneConnection(inner: Client): Client {
  const transaction = async (mode: "write" | "read" | "deferred" = "write"): Promise<Transaction> => {
    await inner.execute(BEGIN[mode] ?? "BEGIN DEFERRED");
    let open = true;
    const end = async (sql: "COMMIT" | "ROLLBACK") => {
      if (!open) return;
      try {
        await inner.execute(sql);
        open = false;
      } catch (error) {
        // A statement that failed may have ended the transaction itself (SQLite rolls back on some errors).
        if (sql === "ROLLBACK") {
          open = false;
          return;
        }
        throw error;
      }
    };
    const tx = {
      execute: (statement: Statement, args?: unknown) => {
        if (!open) throw new Error("The transaction is closed");
        return (inner.execute as (s: Statement, a?: unknown) => ReturnType<Client["execute"]>)(statement, args);
      },
      batch: async (statements: Parameters<Transaction["batch"]>[0]) => {
        const results = [];
        for (const statement of statements) {
          const [sql, args] = Array.isArray(statement) ? statement : [statement, undefined];
          results.push(await (inner.execute as (s: unknown, a?: unknown) => ReturnType<Client["execute"]>)(sql, args));
        }
        return results;
      },
      executeMultiple: (sql: string) => inner.executeMultiple(sql),
      commit: () => end("COMMIT"),
      rollback: () => end("ROLLBACK"),
      close: () => {
        if (open) void end("ROLLBACK");
      },
      get closed() {
        return !open;
      },
    };
    return tx as unknown as Transaction;
  };
  return new Proxy(inner, {
    get(target, property, receiver) {
      if (property === "transaction") return transaction;
      const value = Reflect.get(target, property, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** PrismaLibSql whose client runs transactions on its one connection. */
export class PrismaLibSqlOneConnection extends PrismaLibSql {
  override createClient(config: Parameters<PrismaLibSql["createClient"]>[0]): Client {
    return oneConnection(super.createClient(config));
  }
}

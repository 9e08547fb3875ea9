// The SQLite client under Prisma's libsql adapter: @libsql/client's local-file client, with two changes measured on the
// tool endpoint (bench/mcp: create_collection at 64 clients) and kept to what the adapter reads.
//
// - Statements are prepared once per SQL text and kept (up to STATEMENTS): @libsql/client prepared every statement
//   anew, asked it twice for its columns and tried raw mode to learn whether it returns rows (an exception each time
//   it does not), and built every row with a property definition per value.
// - Interactive transactions run on the client's one connection: @libsql/client ran a transaction on its current
//   connection and opened a new one for whatever came next (about 0.4 ms, statements prepared against a schema read
//   afresh), and every new connection lost the `busy_timeout` set at start. Prisma's adapter holds its lock for the
//   whole of a transaction, so no other statement of this client runs meanwhile: BEGIN, the statements, then COMMIT
//   or ROLLBACK all go to the one connection.
//
// Anything but a plain local file (a sync URL, an encryption key) gets @libsql/client's own client, with the second
// change only.
import { LibsqlError } from "@libsql/core/api";
import { expandConfig, isInMemoryConfig } from "@libsql/core/config";
import { ResultSetImpl } from "@libsql/core/util";
import { PrismaLibSql } from "@prisma/adapter-libsql";
import Database from "libsql";

type Client = ReturnType<PrismaLibSql["createClient"]>;
type Transaction = Awaited<ReturnType<Client["transaction"]>>;
type ResultSet = Awaited<ReturnType<Client["execute"]>>;
type IntMode = "number" | "bigint" | "string";
type Value = null | string | number | bigint | ArrayBuffer | Uint8Array | boolean | Date;
type Statement = string | { sql: string; args?: Value[] | Record<string, Value> };

/** Prepared statements kept per client, the least recently used dropped first. */
const STATEMENTS = 500;

const BEGIN: Record<string, string> = { write: "BEGIN IMMEDIATE", read: "BEGIN TRANSACTION READONLY", deferred: "BEGIN DEFERRED" };

/** An open connection (the libsql binding, better-sqlite3's interface). */
type Connection = InstanceType<typeof Database>;

type Prepared = {
  statement: ReturnType<Connection["prepare"]>;
  /** Whether it returns rows (a SELECT, a RETURNING clause), and then its columns. */
  reader: boolean;
  columns: string[];
  columnTypes: string[];
};

const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const MIN_INT64 = -(2n ** 63n);
const MAX_INT64 = 2n ** 63n - 1n;

/** An argument as SQLite takes it (as @libsql/client converts it). */
function toSql(value: Value, intMode: IntMode): unknown {
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new RangeError("Only finite numbers (not Infinity or NaN) can be passed as arguments");
    return value;
  }
  if (typeof value === "bigint") {
    if (value < MIN_INT64 || value > MAX_INT64)
      throw new RangeError("bigint is too large to be represented as a 64-bit integer and passed as argument");
    return value;
  }
  if (typeof value === "boolean")
    return intMode === "bigint" ? (value ? 1n : 0n) : intMode === "string" ? (value ? "1" : "0") : value ? 1 : 0;
  if (value instanceof ArrayBuffer) return Buffer.from(value);
  if (value instanceof Date) return value.valueOf();
  if (value === undefined) throw new TypeError("undefined cannot be passed as argument to the database");
  return value;
}

/** A value as the adapter reads it (as @libsql/client gives it). */
function fromSql(value: unknown, intMode: IntMode): unknown {
  if (typeof value === "bigint") {
    if (intMode === "bigint") return value;
    if (intMode === "string") return `${value}`;
    if (value < MIN_SAFE || value > MAX_SAFE)
      throw new RangeError("Received integer which cannot be safely represented as a JavaScript number");
    return Number(value);
  }
  if (value instanceof Uint8Array) return value.buffer.slice(value.byteOffset, value.byteOffset + value.byteLength);
  return value;
}

function sqliteError(error: unknown): unknown {
  if (error instanceof Database.SqliteError) {
    const e = error as Error & { code: string; rawCode?: number };
    return new LibsqlError(e.message, e.code, e.code, e.rawCode, e);
  }
  return error;
}

/** A local SQLite file (or memory) client that keeps its prepared statements and runs transactions on its one connection. */
export class CachingSqliteClient {
  closed = false;
  readonly protocol = "file";
  readonly #db: Connection;
  readonly #intMode: IntMode;
  readonly #prepared = new Map<string, Prepared>();

  constructor(db: Connection, intMode: IntMode) {
    this.#db = db;
    this.#intMode = intMode;
  }

  #prepare(sql: string): Prepared {
    const kept = this.#prepared.get(sql);
    if (kept) {
      // Most recently used last.
      this.#prepared.delete(sql);
      this.#prepared.set(sql, kept);
      return kept;
    }
    const statement = this.#db.prepare(sql);
    statement.safeIntegers(true);
    let reader = true;
    try {
      statement.raw(true);
    } catch {
      // raw() throws for a statement that returns no rows
      reader = false;
    }
    const described = reader ? statement.columns() : [];
    const prepared = {
      statement,
      reader,
      columns: described.map((c: { name: string }) => c.name),
      columnTypes: described.map((c: { type: string | null }) => c.type ?? ""),
    };
    if (this.#prepared.size >= STATEMENTS) this.#prepared.delete(this.#prepared.keys().next().value as string);
    this.#prepared.set(sql, prepared);
    return prepared;
  }

  /** Runs one statement now (synchronously, as @libsql/client does for local files). */
  run(stmt: Statement): ResultSet {
    if (this.closed) throw new LibsqlError("The client is closed", "CLIENT_CLOSED");
    const sql = typeof stmt === "string" ? stmt : stmt.sql;
    const given = typeof stmt === "string" ? [] : (stmt.args ?? []);
    const args = Array.isArray(given)
      ? given.map((v) => toSql(v, this.#intMode))
      : Object.fromEntries(Object.entries(given).map(([name, v]) => [/^[@$:]/.test(name) ? name.slice(1) : name, toSql(v, this.#intMode)]));
    try {
      const { statement, reader, columns, columnTypes } = this.#prepare(sql);
      if (reader) {
        const rows = (statement.all(args) as unknown[][]).map((row) => row.map((value) => fromSql(value, this.#intMode)));
        return new ResultSetImpl(columns, columnTypes, rows as never, 0, undefined) as unknown as ResultSet;
      }
      const info = statement.run(args) as { changes: number; lastInsertRowid: number | bigint };
      return new ResultSetImpl([], [], [], info.changes, BigInt(info.lastInsertRowid)) as unknown as ResultSet;
    } catch (error) {
      throw sqliteError(error);
    }
  }

  async execute(stmtOrSql: Statement, args?: Value[] | Record<string, Value>): Promise<ResultSet> {
    return this.run(typeof stmtOrSql === "string" && args !== undefined ? { sql: stmtOrSql, args } : stmtOrSql);
  }

  async batch(statements: Array<Statement | [string, Value[]?]>, mode: "write" | "read" | "deferred" = "deferred"): Promise<ResultSet[]> {
    this.run(BEGIN[mode] ?? "BEGIN DEFERRED");
    try {
      const results = statements.map((s) => this.run(Array.isArray(s) ? { sql: s[0], args: s[1] ?? [] } : s));
      this.run("COMMIT");
      return results;
    } finally {
      if (this.#db.inTransaction) this.run("ROLLBACK");
    }
  }

  /** Runs a script; a transaction it leaves open is rolled back (as @libsql/client's client does). */
  async executeMultiple(sql: string): Promise<void> {
    try {
      this.exec(sql);
    } finally {
      if (this.#db.inTransaction) this.run("ROLLBACK");
    }
  }

  /** Runs a script as it stands (inside a transaction: its statements are the transaction's). */
  exec(sql: string): void {
    if (this.closed) throw new LibsqlError("The client is closed", "CLIENT_CLOSED");
    try {
      this.#db.exec(sql);
    } catch (error) {
      throw sqliteError(error);
    }
  }

  async transaction(mode: "write" | "read" | "deferred" = "write"): Promise<Transaction> {
    return runOn(this, mode, async (sql) => this.exec(sql));
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.#prepared.clear();
    this.#db.close();
  }
}

/** A transaction on `client`'s own connection: BEGIN now, COMMIT or ROLLBACK at its end. */
async function runOn(
  client: Pick<Client, "execute">,
  mode: "write" | "read" | "deferred",
  script: (sql: string) => Promise<void>,
): Promise<Transaction> {
  await client.execute(BEGIN[mode] ?? "BEGIN DEFERRED");
  let open = true;
  const end = async (sql: "COMMIT" | "ROLLBACK") => {
    if (!open) return;
    try {
      await client.execute(sql);
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
  const execute = (statement: unknown, args?: unknown) => {
    if (!open) throw new LibsqlError("The transaction is closed", "TRANSACTION_CLOSED");
    return (client.execute as (s: unknown, a?: unknown) => Promise<ResultSet>)(statement, args);
  };
  const tx = {
    execute,
    batch: async (statements: unknown[]) => {
      const results: ResultSet[] = [];
      for (const s of statements) results.push(await (Array.isArray(s) ? execute({ sql: s[0], args: s[1] ?? [] }) : execute(s)));
      return results;
    },
    executeMultiple: (sql: string) => {
      if (!open) throw new LibsqlError("The transaction is closed", "TRANSACTION_CLOSED");
      return script(sql);
    },
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
}

/** @libsql/client's own client, its transactions run on its one connection. */
function oneConnection(inner: Client): Client {
  // @libsql/client's executeMultiple would roll back the open transaction when done: refused here (the adapter never
  // runs a script inside a transaction).
  const script = async () => {
    throw new LibsqlError("a script cannot run inside this client's transaction", "TRANSACTION_SCRIPT");
  };
  const transaction = (mode: "write" | "read" | "deferred" = "write") => runOn(inner, mode, script);
  return new Proxy(inner, {
    get(target, property, receiver) {
      if (property === "transaction") return transaction;
      const value = Reflect.get(target, property, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** PrismaLibSql on the client above. */
export class PrismaLibSqlCaching extends PrismaLibSql {
  override createClient(config: Parameters<PrismaLibSql["createClient"]>[0]): Client {
    const expanded = expandConfig(config, true);
    const plainFile =
      expanded.scheme === "file" &&
      (expanded.authority === undefined || ["", "localhost"].includes(expanded.authority.host.toLowerCase())) &&
      !expanded.syncUrl &&
      !expanded.encryptionKey &&
      !isInMemoryConfig(expanded);
    if (!plainFile) return oneConnection(super.createClient(config));
    const db = new Database(expanded.path, { timeout: expanded.timeout });
    const client = new CachingSqliteClient(db, (expanded.intMode ?? "number") as IntMode);
    client.run("SELECT 1 AS checkThatTheDatabaseCanBeOpened");
    return client as unknown as Client;
  }
}

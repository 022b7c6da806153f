import { inTransaction } from "../repositories/database";
import pg from "pg";
import type { PostgresWarehouse } from "@/lib/contracts/warehouses";
import { readSecret } from "../orchestrators/secrets";
import type { CleanStatement, UnitRows, Warehouse } from "./port";

const IDENT = /^[A-Za-z_][A-Za-z0-9_$]*$/;
const quote = (ident: string) => `"${ident.replace(/"/g, '""')}"`;

/** The table and unit column of a dataset: its mapping, else the last two parts of its name (`db.schema.table` → schema.table). */
function target(connection: PostgresWarehouse, unit: UnitRows): { table: string; column: string } | { unsupported: string } {
  const mapping = connection.tables[unit.name] ?? {};
  const parts = (mapping.table ?? unit.name).split(".").slice(-2);
  if (!parts.every((p) => IDENT.test(p)))
    return { unsupported: `${unit.name} is not a plain schema.table name: map it to its table in the warehouse connection's tables` };
  const column = mapping.unitColumn ?? connection.unitColumn;
  if (!column) return { unsupported: `no unit column for ${unit.name}: set unitColumn (the column saying which unit a row belongs to)` };
  return { table: parts.map(quote).join("."), column: quote(column) };
}

function where(column: string, unit: UnitRows): { clause: string; params: string[] } {
  // Time units by their window (UTC session): a date or timestamp column both compare.
  if (unit.window)
    return { clause: `${column} >= $1::timestamptz AND ${column} < $2::timestamptz`, params: [unit.window.start.toISOString(), unit.window.end.toISOString()] };
  return { clause: `${column}::text = $1`, params: [unit.unitKey] };
}

/**
 * A PostgreSQL warehouse: the unit's rows are those of the dataset's table whose unit column
 * falls in the unit's window (or equals its key). The connection string is read from its named
 * secret for each clean; the statement is shown before it runs.
 */
export function postgresWarehouse(connection: PostgresWarehouse): Warehouse {
  const statementOf = (unit: UnitRows): CleanStatement | { unsupported: string } => {
    const t = target(connection, unit);
    if ("unsupported" in t) return t;
    const w = where(t.column, unit);
    return { sql: `DELETE FROM ${t.table} WHERE ${w.clause}`, params: w.params };
  };
  const connect = async () => {
    const client = new pg.Client({ connectionString: await readSecret(connection.url), statement_timeout: 60_000, connectionTimeoutMillis: 10_000 });
    await client.connect();
    await client.query("SET TIME ZONE 'UTC'");
    return client;
  };
  const count = async (client: pg.Client, unit: UnitRows) => {
    const t = target(connection, unit);
    if ("unsupported" in t) throw new Error(t.unsupported);
    const w = where(t.column, unit);
    const r = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${t.table} WHERE ${w.clause}`, w.params);
    return r.rows[0]!.n;
  };
  return {
    kind: "postgresql",
    statement: statementOf,
    async countRows(_db, units) {
      const client = await connect();
      try {
        const out = new Map<string, number>();
        for (const unit of units) out.set(unit.unitKey, await count(client, unit));
        return out;
      } finally {
        await client.end().catch(() => undefined);
      }
    },
    async clean(db, unit, record, undo) {
      const statement = statementOf(unit);
      if ("unsupported" in statement) throw new Error(statement.unsupported);
      const client = await connect();
      let recorded: { value: Awaited<ReturnType<typeof record>> } | null = null;
      try {
        await client.query("BEGIN");
        const before = await count(client, unit);
        await client.query(statement.sql, [...statement.params]);
        const after = await count(client, unit);
        // Reparo records first (a failed record rolls the delete back); then the warehouse commits.
        recorded = { value: await inTransaction(db, (tx) => record(tx, { before, after })) };
        await client.query("COMMIT");
        return recorded.value;
      } catch (e) {
        await client.query("ROLLBACK").catch(() => undefined);
        // Recorded, but the warehouse did not commit: the rows are still there, and Reparo says so.
        if (recorded) await inTransaction(db, (tx) => undo(tx, recorded!.value, e as Error));
        throw e;
      } finally {
        await client.end().catch(() => undefined);
      }
    },
  };
}

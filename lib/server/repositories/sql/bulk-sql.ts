import { providerOf, type Tx } from "../database";
import { prismaOf } from "../prisma-handle";
import { pgConnectionOf } from "../../db/client";

export type ColumnType = "text" | "int" | "float" | "timestamp" | "bool";
export interface Column {
  name: string;
  type: ColumnType;
}

const CHUNK = 500;
const PG_CAST: Record<ColumnType, string> = { text: "text", int: "integer", float: "double precision", timestamp: "timestamp(3)", bool: "boolean" };

/**
 * Updates many rows by id in one statement per chunk (`UPDATE … FROM (VALUES …)`, which SQLite
 * ≥ 3.33 and PostgreSQL both speak) instead of one round trip per row — ingestion updates a run
 * and its attempts on every COMPLETE, and per-row updates alone capped throughput well under the
 * 2,000 events/s bar. On PostgreSQL the rows are one array per column (`unnest`), whatever their
 * number. Dates are written the way each provider's Prisma adapter stores them.
 */
export async function bulkUpdateById(tx: Tx, table: string, columns: Column[], rows: Record<string, unknown>[]): Promise<void> {
  if (rows.length === 0) return;
  const provider = providerOf(tx);
  const all = [{ name: "id", type: "text" as const }, ...columns];
  if (provider === "postgresql") {
    const { source, params } = unnestSource(all, rows);
    const sets = columns.map((c) => `"${c.name}" = v."${c.name}"`).join(", ");
    await send(tx, `UPDATE "${table}" SET ${sets} FROM ${source} WHERE "${table}"."id" = v."id"`, params);
    return;
  }
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK);
    const params: unknown[] = [];
    const tuples = chunk.map((row) => `(${all.map((c) => placeholder(provider, params.push(encode(provider, c.type, row[c.name])), c.type)).join(", ")})`);
    const sets = columns.map((c, j) => `"${c.name}" = v.column${j + 2}`).join(", ");
    const sql = `UPDATE "${table}" SET ${sets} FROM (VALUES ${tuples.join(", ")}) AS v WHERE "${table}"."id" = v.column1`;
    await prismaOf(tx).$executeRawUnsafe(sql, ...params);
  }
}

/**
 * The rows as a PostgreSQL row source of one array parameter per column: `unnest($1::text[], …)
 * AS v("id", …)`. A statement of a few parameters costs the same to send, parse and plan whatever
 * the rows; a placeholder per value cost the fold more (in the console: Prisma's handling of each
 * parameter; in PostgreSQL: parsing and planning tens of thousands of casts) than the writes.
 */
function unnestSource(columns: Column[], rows: Record<string, unknown>[]): { source: string; params: unknown[] } {
  const params = columns.map((c) => rows.map((row) => encode("postgresql", c.type, row[c.name])));
  const arrays = columns.map((c, i) => `$${i + 1}::${PG_CAST[c.type]}[]`).join(", ");
  return { source: `unnest(${arrays}) AS v(${columns.map((c) => `"${c.name}"`).join(", ")})`, params };
}

/**
 * Inserts many rows with one multi-row INSERT per chunk. Prisma's createMany costs ~0.4 ms per
 * row in its query compiler; the raw statement ~0.04 ms — the difference between missing and
 * meeting the ingestion throughput bar. Rows must carry their id (no client-side defaults here).
 */
export async function bulkInsert(tx: Tx, table: string, columns: Column[], rows: Record<string, unknown>[]): Promise<void> {
  for (const { sql, params } of insertStatements(tx, table, columns, rows)) await send(tx, sql, params);
}

/**
 * A write's rows: on PostgreSQL in a transaction, sent on the transaction's own connection
 * (pgConnectionOf) — its parameters are arrays of thousands of values, which Prisma's query path
 * would copy, map and hand to its compiler first; elsewhere through Prisma.
 */
async function send<T = Record<string, unknown>>(tx: Tx, sql: string, params: unknown[], answers = false): Promise<T[]> {
  const connection = await pgConnectionOf(prismaOf(tx));
  if (connection) return (await connection.query(sql, params)).rows as T[];
  if (answers) return prismaOf(tx).$queryRawUnsafe<T[]>(sql, ...params);
  await prismaOf(tx).$executeRawUnsafe(sql, ...params);
  return [];
}

/**
 * One multi-row INSERT per chunk of rows (SQLite: at most 30,000 parameters each); on PostgreSQL
 * one INSERT … SELECT over one array per column, whatever the rows.
 */
export function insertStatements(tx: Tx, table: string, columns: Column[], rows: Record<string, unknown>[]): { sql: string; params: unknown[] }[] {
  const provider = providerOf(tx);
  const names = columns.map((c) => `"${c.name}"`).join(", ");
  if (rows.length === 0) return [];
  if (provider === "postgresql") {
    const { source, params } = unnestSource(columns, rows);
    return [{ sql: `INSERT INTO "${table}" (${names}) SELECT ${names} FROM ${source}`, params }];
  }
  const chunk = Math.max(1, Math.floor(30_000 / columns.length));
  const out: { sql: string; params: unknown[] }[] = [];
  for (let i = 0; i < rows.length; i += chunk) {
    const params: unknown[] = [];
    const tuples = rows
      .slice(i, i + chunk)
      .map((row) => `(${columns.map((c) => placeholder(provider, params.push(encode(provider, c.type, row[c.name])), c.type)).join(", ")})`);
    out.push({ sql: `INSERT INTO "${table}" (${names}) VALUES ${tuples.join(", ")}`, params });
  }
  return out;
}

/**
 * `(p1, p2, …)` for an IN list of text values, pushing them onto `params` (placeholders as each
 * provider's raw queries number them). The reads on the ingestion path are raw: a profile of a
 * 100-event batch found Prisma's query compiler behind about 7 % of its CPU.
 */
export function textList(tx: Tx, params: unknown[], values: readonly string[]): string {
  const provider = providerOf(tx);
  return `(${values.map((v) => placeholder(provider, params.push(v), "text")).join(", ")})`;
}

/**
 * `"column" = ANY($n::text[])` on PostgreSQL — one parameter however many values — or `"column"
 * IN (?, …)` on SQLite (chunk the values below its 32,766 parameters). The fold reads thousands
 * of runs' rows at a time; one placeholder per value cost more to build, send and plan than the read.
 */
export function inTexts(tx: Tx, params: unknown[], column: string, values: readonly string[]): string {
  if (providerOf(tx) === "postgresql") return `${column} = ANY($${params.push([...values])}::text[])`;
  return `${column} IN ${textList(tx, params, values)}`;
}

function placeholder(provider: string, n: number, type: ColumnType): string {
  return provider === "postgresql" ? `$${n}::${PG_CAST[type]}` : "?";
}

function encode(provider: string, type: ColumnType, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (type === "bool") return provider === "postgresql" ? value : value ? 1 : 0;
  if (type !== "timestamp") return value;
  const iso = (value as Date).toISOString();
  return provider === "postgresql" ? iso : iso.replace("Z", "+00:00");
}

/**
 * bulkInsert that skips rows colliding with any unique key (`ON CONFLICT DO NOTHING`, which both
 * databases speak) and answers the `returning` column of the rows it did insert. Under
 * concurrency this is what turns "two requests stored the same thing at once" into one insert
 * and one duplicate: on PostgreSQL the second INSERT waits for the first transaction and then
 * skips, instead of failing the whole request with a unique violation.
 */
export async function insertNew(tx: Tx, table: string, columns: Column[], rows: Record<string, unknown>[], returning: string): Promise<string[]> {
  const inserted: string[] = [];
  for (const { sql, params } of insertStatements(tx, table, columns, rows)) {
    const out = await send<Record<string, string>>(tx, `${sql} ON CONFLICT DO NOTHING RETURNING "${returning}"`, params, true);
    for (const r of out) inserted.push(r[returning]!);
  }
  return inserted;
}

/**
 * Inserts rows, or updates the stored row of the same id where any of `changing` differs; answers
 * the ids written either way (one statement per chunk instead of a read, an insert and an update).
 * Both databases speak `ON CONFLICT … DO UPDATE … WHERE` and `IS DISTINCT FROM`.
 */
export async function upsertChanged(tx: Tx, table: string, columns: Column[], changing: Column[], rows: Record<string, unknown>[]): Promise<string[]> {
  const sets = changing.map((c) => `"${c.name}" = excluded."${c.name}"`).join(", ");
  const differs = changing.map((c) => `"${table}"."${c.name}" IS DISTINCT FROM excluded."${c.name}"`).join(" OR ");
  const written: string[] = [];
  for (const { sql, params } of insertStatements(tx, table, columns, rows)) {
    const out = await send<{ id: string }>(tx, `${sql} ON CONFLICT ("id") DO UPDATE SET ${sets} WHERE ${differs} RETURNING "id"`, params, true);
    for (const r of out) written.push(r.id);
  }
  return written;
}

import type { Attempt, AttemptStatus, LedgerEntry, RunKind } from "@/lib/domain/unit-state";
import { providerOf, type Db } from "../database";
import { prismaOf } from "../prisma-handle";
import { rawRead } from "../sql/raw-read";

/**
 * Reads for the unit matrix, which reads every ledger row and attempt: per dataset (so memory
 * holds one dataset's records at a time), only the columns the rules read, and run kinds from
 * one small query (only non-scheduled runs) instead of a join repeated per publish.
 */
const RUN_KINDS = new Set<RunKind>(["scheduled", "manual", "backfill", "repair"]);

/**
 * SQLite: map the file instead of read() per page. The ledger's rows of one dataset lie
 * scattered across the file (runs insert every dataset's unit together), so reading them all
 * touches most pages; through mmap that is half the time. Per connection, idempotent.
 */
export async function prepareBulkReads(db: Db): Promise<void> {
  if (providerOf(db) === "sqlite") await prismaOf(db).$queryRawUnsafe(`PRAGMA mmap_size = 1073741824`);
}

/**
 * Ids and kinds of the runs that are not scheduled (few): the ledger rows carry only run ids.
 * `among`: of those runs only (an update's few units), by primary key.
 */
export async function unscheduledRunKinds(db: Db, among?: readonly string[]): Promise<Map<string, RunKind>> {
  const out = new Map<string, RunKind>();
  const add = (rows: { id: string; kind: string }[]) => {
    for (const r of rows) out.set(r.id, RUN_KINDS.has(r.kind as RunKind) ? (r.kind as RunKind) : "manual");
  };
  if (!among) add(await prismaOf(db).$queryRawUnsafe(`SELECT "id", "kind" FROM "Run" WHERE "kind" <> 'scheduled'`));
  else if (among.length > 0) {
    const pg = providerOf(db) === "postgresql";
    const ids = [...new Set(among)];
    add(
      await rawRead<{ id: string; kind: string }>(
        db,
        `SELECT "id", "kind" FROM "Run" WHERE "kind" <> 'scheduled' AND "id" ${pg ? "= ANY($1::text[])" : "IN (SELECT value FROM json_each(?))"}`,
        pg ? ids : JSON.stringify(ids),
      ),
    );
  }
  return out;
}

/**
 * One dataset's records as one JSON array per field, built by the database (json_group_array /
 * json_agg, one aggregate per field over the same rows, so the i-th element of each is one
 * record): a row per record through the driver costs ~5 µs, a character of JSON a few
 * nanoseconds, and the matrix reads millions. Columns, not an array per record: parsing a
 * million small arrays and collecting them was a third of a first computation (docs/units.md).
 * JSON quotes every field, so producers' text (an input version holding any character at all)
 * stays its own field.
 */
async function aggregated(db: Db, read: LedgerRead, id: string, keys?: readonly string[]): Promise<Columns> {
  const provider = providerOf(db);
  const rows = keys
    ? await rawRead<{ s: string | null }>(db, aggregatedSql(provider, read, true), id, provider === "postgresql" ? keys : JSON.stringify(keys))
    : await rawRead<{ s: string | null }>(db, aggregatedSql(provider, read), id);
  const text = rows[0]?.s;
  // PostgreSQL's json_agg over no rows is null, SQLite's json_group_array an empty array.
  const columns = text ? (JSON.parse(text) as (unknown[] | null)[]) : [];
  return read.fields.map((_, i) => columns[i] ?? []);
}

/** One of the first computation's reads: a table's rows of one owner, the fields the rules read ("@": an instant). */
export interface LedgerRead {
  table: "Publish" | "Attempt";
  owner: "datasetId" | "taskId";
  fields: readonly string[];
}

// On SQLite every field here is in the key of the owner's covering index (prisma/models.prisma):
// a field added here and not there sends each read back to a table page per row. The rows come in
// that index's order, a unit's records by time: of two at one instant, the rules take the one
// later in this order as the latest (before the index, the one written later).
export const PUBLISH_READ: LedgerRead = {
  table: "Publish",
  owner: "datasetId",
  fields: ["unitKey", "runId", "@publishedAt", "inputVersion", "codeVersion", "rowCount"],
};
export const LATEST_VERSION_READ: LedgerRead = { table: "Publish", owner: "datasetId", fields: ["unitKey", "@publishedAt", "inputVersion"] };
const PUBLISHED_AT_READ: LedgerRead = { table: "Publish", owner: "datasetId", fields: ["unitKey", "@publishedAt"] };
export const ATTEMPT_READ: LedgerRead = {
  table: "Attempt",
  owner: "taskId",
  fields: ["unitKey", "runId", "tryNumber", "status", "rowsWritten", "error", "@startedAt", "@endedAt"],
};

/**
 * The statement of one read, its owner's id its one parameter; `byKeys`: only the units of a
 * second parameter, the keys (PostgreSQL: a text array; SQLite: a JSON array, walked with
 * json_each so that any number of keys is one parameter), through the same index.
 */
export function aggregatedSql(provider: "sqlite" | "postgresql", read: LedgerRead, byKeys = false): string {
  const pg = provider === "postgresql";
  const cols = read.fields.map((f) => (f.startsWith("@") ? timeExpr(f.slice(1), pg) : `"${f}"`));
  const agg = pg
    ? `json_build_array(${cols.map((c) => `json_agg(${c})`).join(", ")})::text`
    : `json_array(${cols.map((c) => `json_group_array(${c})`).join(", ")})`;
  const keys = !byKeys ? "" : pg ? ` AND "unitKey" = ANY($2::text[])` : ` AND "unitKey" IN (SELECT value FROM json_each(?))`;
  return `SELECT ${agg} AS s FROM "${read.table}" WHERE "${read.owner}" = ${pg ? "$1" : "?"}${keys}`;
}

type Columns = unknown[][];

/** Epoch milliseconds on PostgreSQL; SQLite keeps the adapter's stored value (epoch ms or ISO text). */
const timeExpr = (f: string, pg: boolean) => (pg ? `(extract(epoch from "${f}") * 1000)::bigint` : `"${f}"`);
const timeOf = (v: unknown): number | null =>
  v === null || v === undefined || v === "" ? null : typeof v === "number" ? v : typeof v === "string" ? isoTimeMs(v) : slowTimeMs(String(v));
const textOf = (v: unknown): string | null => (v === null || v === undefined || v === "" ? null : String(v));

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
/** The two digits of s at `at` as a number, or -1 if one is not a digit. */
function two(s: string, at: number): number {
  const a = s.charCodeAt(at) - 48;
  const b = s.charCodeAt(at + 1) - 48;
  return a < 0 || a > 9 || b < 0 || b > 9 ? -1 : a * 10 + b;
}

/** Days from 1970-01-01 to a proleptic Gregorian date (as Date.UTC counts them), by arithmetic. */
function epochDay(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  return era * 146_097 + yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy - 719_468;
}

/**
 * A stored instant in epoch milliseconds, exactly as `Date.parse` reads it. SQLite's adapter
 * stores `yyyy-MM-ddTHH:mm:ss.SSS+00:00`; that form, with every field in range, is read here from
 * its digits, the day counted by arithmetic (Date.parse took ~0.6 µs a call, Date.UTC half of
 * what was left, and a first computation makes three million); any other text (an epoch in
 * digits, another zone, a field out of range) goes the way it always went.
 */
export function isoTimeMs(s: string): number {
  const n = s.length;
  const utc = (n === 24 && s.charCodeAt(23) === 90) || (n === 29 && s.endsWith("+00:00"));
  // - - T : : .
  if (
    !utc ||
    s.charCodeAt(4) !== 45 ||
    s.charCodeAt(7) !== 45 ||
    s.charCodeAt(10) !== 84 ||
    s.charCodeAt(13) !== 58 ||
    s.charCodeAt(16) !== 58 ||
    s.charCodeAt(19) !== 46
  )
    return slowTimeMs(s);
  const hi = two(s, 0);
  const lo = two(s, 2);
  const month = two(s, 5);
  const day = two(s, 8);
  const hour = two(s, 11);
  const minute = two(s, 14);
  const second = two(s, 17);
  const m1 = s.charCodeAt(20) - 48;
  const m23 = two(s, 21);
  if (hi < 10 || lo < 0 || m1 < 0 || m1 > 9 || m23 < 0) return slowTimeMs(s);
  const year = hi * 100 + lo;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  if (month < 1 || month > 12 || day < 1 || day > (month === 2 && !leap ? 28 : DAYS_IN_MONTH[month - 1]!)) return slowTimeMs(s);
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) return slowTimeMs(s);
  return epochDay(year, month, day) * 86_400_000 + hour * 3_600_000 + minute * 60_000 + second * 1_000 + m1 * 100 + m23;
}

const slowTimeMs = (s: string) => (/^\d+$/.test(s) ? Number(s) : Date.parse(s));

/**
 * Every publish of one dataset, by unit; `only`: of those units alone (an update of the unit
 * states recomputing a few units reads them the way the first computation does, in the same
 * order, rather than a row per record through the ORM: docs/ingestion.md).
 */
export async function publishesOfDataset(
  db: Db,
  datasetId: string,
  kinds: Map<string, RunKind>,
  only?: readonly string[],
): Promise<Map<string, LedgerEntry[]>> {
  const out = new Map<string, LedgerEntry[]>();
  const [keys, runIds, ats, inputVersions, codeVersions, rowCounts] = await aggregated(db, PUBLISH_READ, datasetId, only);
  for (let i = 0; i < keys!.length; i++) {
    const run = String(runIds![i]);
    const rowCount = rowCounts![i];
    const entry: LedgerEntry = {
      runId: run,
      runKind: kinds.get(run) ?? "scheduled",
      publishedAt: timeOf(ats![i])!,
      inputVersion: textOf(inputVersions![i]),
      codeVersion: textOf(codeVersions![i]),
      rowCount: rowCount === null || rowCount === undefined ? null : Number(rowCount),
    };
    const key = String(keys![i]);
    const list = out.get(key);
    if (list) list.push(entry);
    else out.set(key, [entry]);
  }
  return out;
}

/**
 * The input version of each unit's newest publish of one dataset (the last of the newest instant,
 * in the order publishesOfDataset reads them): what its prevailing input version is taken from,
 * without reading the rest of its ledger.
 */
export async function latestInputVersionsOfDataset(db: Db, datasetId: string): Promise<(string | null)[]> {
  const latest = new Map<string, { at: number; version: string | null }>();
  const [keys, ats, inputVersions] = await aggregated(db, LATEST_VERSION_READ, datasetId);
  for (let i = 0; i < keys!.length; i++) {
    const key = String(keys![i]);
    const t = timeOf(ats![i])!;
    const seen = latest.get(key);
    if (seen === undefined || t >= seen.at) latest.set(key, { at: t, version: textOf(inputVersions![i]) });
  }
  return [...latest.values()].map((l) => l.version);
}

/**
 * The newest publish instant of some units of one dataset (-1 where a unit has none), as
 * `latest` is filled from publishesOfDataset, reading only the two fields it needs.
 */
export async function latestPublishedAtOfUnits(db: Db, datasetId: string, keys: readonly string[], into: (key: string, at: number) => void): Promise<void> {
  if (keys.length === 0) return;
  const [unitKeys, ats] = await aggregated(db, PUBLISHED_AT_READ, datasetId, keys);
  for (let i = 0; i < unitKeys!.length; i++) into(String(unitKeys![i]), timeOf(ats![i])!);
}

/** Every attempt of one task, by unit; `only`: of those units alone (as publishesOfDataset). */
export async function attemptsOfTask(db: Db, taskId: string, only?: readonly string[]): Promise<Map<string, Attempt[]>> {
  const out = new Map<string, Attempt[]>();
  const [keys, runIds, tryNumbers, statuses, rows, errors, starts, ends] = await aggregated(db, ATTEMPT_READ, taskId, only);
  for (let i = 0; i < keys!.length; i++) {
    const written = rows![i];
    const attempt: Attempt = {
      runId: String(runIds![i]),
      tryNumber: Number(tryNumbers![i]),
      status: statuses![i] as AttemptStatus,
      rowsWritten: written === null ? null : Number(written),
      error: textOf(errors![i]),
      startedAt: timeOf(starts![i]),
      endedAt: timeOf(ends![i]),
    };
    const key = String(keys![i]);
    const list = out.get(key);
    if (list) list.push(attempt);
    else out.set(key, [attempt]);
  }
  return out;
}

const stringify = (v: unknown) => JSON.stringify(v, (_, x: unknown) => (typeof x === "bigint" ? x.toString() : x));

/**
 * Cheap summaries that change whenever anything the unit states read changes. `ledger`: rows
 * added to the ledger, attempts added or moved to another status, runs of a kind other than
 * scheduled. `catalog`: source counts, marks, lineage and catalog edits. Counts and maxima only.
 */
export async function unitStateFingerprint(db: Db): Promise<{ ledger: string; catalog: string }> {
  if (providerOf(db) !== "sqlite") return fingerprintTables(db);
  // SQLite reads block the event loop, and counting a million ledger rows takes 100-250 ms per
  // request. Two counters say whether anything was written since the last count: data_version
  // moves when another connection (another process) commits, total_changes() when this one
  // writes. Read before the count, so a write landing in between shows up next time.
  const [{ stamp }] = await prismaOf(db).$queryRawUnsafe<[{ stamp: string }]>(
    `SELECT (SELECT "data_version" FROM pragma_data_version) || ':' || total_changes() AS "stamp"`,
  );
  const last = lastCounts.get(db);
  if (last && last.stamp === stamp) return last.fingerprint;
  const fingerprint = await fingerprintTables(db);
  lastCounts.set(db, { stamp, fingerprint });
  return fingerprint;
}

const lastCounts = new WeakMap<Db, { stamp: string; fingerprint: { ledger: string; catalog: string } }>();

async function fingerprintTables(db: Db): Promise<{ ledger: string; catalog: string }> {
  const q = (sql: string) => prismaOf(db).$queryRawUnsafe<unknown[]>(sql);
  const [publish, attempt, runs, ...catalog] = await Promise.all([
    q(`SELECT count(*) AS n, max("publishedAt") AS t FROM "Publish"`),
    q(`SELECT "status", count(*) AS n FROM "Attempt" GROUP BY "status" ORDER BY "status"`),
    q(`SELECT "kind", count(*) AS n FROM "Run" WHERE "kind" <> 'scheduled' GROUP BY "kind" ORDER BY "kind"`),
    q(`SELECT count(*) AS n, max("measuredAt") AS t, sum("rowCount") AS s FROM "SourceCount"`),
    q(`SELECT count(*) AS n, count("clearedAt") AS c, max("createdAt") AS t FROM "UnitMark"`),
    q(`SELECT count(*) AS n, count("validTo") AS c, max("validFrom") AS t FROM "LineageEdge"`),
    q(`SELECT count(*) AS n, max("updatedAt") AS t FROM "Dataset"`),
    q(`SELECT count(*) AS n, max("updatedAt") AS t FROM "Task"`),
  ]);
  return { ledger: stringify([publish, attempt, runs]), catalog: stringify(catalog) };
}

/** Per dataset and per task, a summary of its publishes / attempts: which ones changed. */
export async function ledgerFingerprintsByOwner(db: Db): Promise<{ publishes: Map<string, string>; attempts: Map<string, string> }> {
  const [publishes, attempts] = await Promise.all([
    prismaOf(db).$queryRawUnsafe<{ id: string }[]>(`SELECT "datasetId" AS id, count(*) AS n, max("publishedAt") AS t FROM "Publish" GROUP BY "datasetId"`),
    prismaOf(db).$queryRawUnsafe<{ id: string }[]>(
      `SELECT "taskId" AS id, count(*) AS n, max("startedAt") AS s, max("endedAt") AS e, sum(length("status")) AS st, sum(coalesce("rowsWritten", 0)) AS r FROM "Attempt" GROUP BY "taskId"`,
    ),
  ]);
  const byId = (rows: { id: string }[]) => new Map(rows.map((r) => [r.id, stringify(r)]));
  return { publishes: byId(publishes), attempts: byId(attempts) };
}

/** The ledger rows and attempts of one unit, oldest first, for the cell's side panel. */
export async function recordsOfUnit(db: Db, datasetId: string, taskId: string | null, unitKey: string) {
  const [publishes, attempts] = await Promise.all([
    prismaOf(db).publish.findMany({ where: { datasetId, unitKey }, orderBy: { publishedAt: "asc" }, include: { run: { select: { kind: true } } } }),
    taskId ? prismaOf(db).attempt.findMany({ where: { taskId, unitKey }, orderBy: [{ startedAt: "asc" }, { tryNumber: "asc" }] }) : Promise.resolve([]),
  ]);
  return {
    publishes: publishes.map((p) => ({
      runId: p.runId,
      runKind: p.run.kind,
      publishedAt: p.publishedAt,
      inputVersion: p.inputVersion || null,
      codeVersion: p.codeVersion || null,
      rowCount: p.rowCount,
    })),
    attempts: attempts.map((a) => ({
      runId: a.runId,
      tryNumber: a.tryNumber,
      status: a.status,
      rowsWritten: a.rowsWritten,
      error: a.error,
      startedAt: a.startedAt,
      endedAt: a.endedAt,
    })),
  };
}

import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { emptyTarget, providersUnderTest, type Provider } from "../testing/test-database";
import type { DatabaseTarget } from "./database-url";
import { migrate, migratePostgres, migrateSqlite, migrationsDir, readMigrations } from "./migrate";
import { migrationFile, type MigrationFile } from "./migration-files";

const root = path.resolve(__dirname, "../../..");

// What `prisma migrate diff` generates when Pipeline.owner becomes optional (String @default("") →
// String?), copied verbatim: on SQLite a table rebuild of the parent of Task, Dataset and Run
// (CREATE new_X, INSERT SELECT, DROP X, ALTER RENAME); on PostgreSQL an ALTER.
const REBUILD_PIPELINE: Record<Provider, string> = {
  sqlite: `-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Pipeline" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "namespace" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "owner" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);
INSERT INTO "new_Pipeline" ("createdAt", "description", "id", "name", "namespace", "owner") SELECT "createdAt", "description", "id", "name", "namespace", "owner" FROM "Pipeline";
DROP TABLE "Pipeline";
ALTER TABLE "new_Pipeline" RENAME TO "Pipeline";
CREATE UNIQUE INDEX "Pipeline_namespace_name_key" ON "Pipeline"("namespace", "name");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
`,
  postgresql: `-- AlterTable
ALTER TABLE "Pipeline" ALTER COLUMN "owner" DROP NOT NULL,
ALTER COLUMN "owner" DROP DEFAULT;
`,
};

// A migration that loses pipeline p-2 while Task t-2 (and Dataset d-2) still point at it.
const DANGLING: Record<Provider, string> = {
  sqlite: REBUILD_PIPELINE.sqlite.replace(`FROM "Pipeline";`, `FROM "Pipeline" WHERE "id" <> 'p-2';`),
  postgresql: `ALTER TABLE "Task" DROP CONSTRAINT "Task_pipelineId_fkey";
ALTER TABLE "Dataset" DROP CONSTRAINT "Dataset_pipelineId_fkey";
ALTER TABLE "Run" DROP CONSTRAINT "Run_pipelineId_fkey";
ALTER TABLE "Pipeline" ALTER COLUMN "owner" DROP NOT NULL;
DELETE FROM "Pipeline" WHERE "id" = 'p-2';
ALTER TABLE "Task" ADD CONSTRAINT "Task_pipelineId_fkey" FOREIGN KEY ("pipelineId") REFERENCES "Pipeline"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "Dataset" ADD CONSTRAINT "Dataset_pipelineId_fkey" FOREIGN KEY ("pipelineId") REFERENCES "Pipeline"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "Run" ADD CONSTRAINT "Run_pipelineId_fkey" FOREIGN KEY ("pipelineId") REFERENCES "Pipeline"("id") ON DELETE SET NULL ON UPDATE CASCADE;
`,
};

/** Runs SQL on the target with its own connection; `?` placeholders on both providers. */
async function query<T>(target: DatabaseTarget, sql: string, params: unknown[] = []): Promise<T[]> {
  if (target.provider === "sqlite") {
    const db = new Database(target.file);
    try {
      const stmt = db.prepare(sql);
      return stmt.reader ? (stmt.all(...params) as T[]) : (stmt.run(...params), []);
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: target.url });
  await client.connect();
  try {
    let i = 0;
    return (
      await client.query(
        sql.replace(/\?/g, () => `$${++i}`),
        params,
      )
    ).rows as T[];
  } finally {
    await client.end();
  }
}

async function seedChildren(target: DatabaseTarget): Promise<void> {
  for (const n of [1, 2, 3]) {
    await query(target, `INSERT INTO "Pipeline" ("id", "namespace", "name", "owner") VALUES (?, 'ns', ?, 'data-eng')`, [`p-${n}`, `pipe${n}`]);
    await query(target, `INSERT INTO "Task" ("id", "nodeId", "namespace", "name", "pipelineId", "updatedAt") VALUES (?, ?, 'ns', ?, ?, ?)`, [
      `t-${n}`,
      `job:ns:t${n}`,
      `t${n}`,
      `p-${n}`,
      "2026-12-01T00:00:00.000Z",
    ]);
    await query(target, `INSERT INTO "Dataset" ("id", "nodeId", "namespace", "name", "pipelineId", "updatedAt") VALUES (?, ?, 'ns', ?, ?, ?)`, [
      `d-${n}`,
      `dataset:ns:d${n}`,
      `d${n}`,
      `p-${n}`,
      "2026-12-01T00:00:00.000Z",
    ]);
    await query(target, `INSERT INTO "Run" ("id", "pipelineId", "kind", "status") VALUES (?, ?, 'scheduled', 'succeeded')`, [`r-${n}`, `p-${n}`]);
  }
}

async function childLinks(target: DatabaseTarget) {
  const rows = await query<{ child: string; pipelineId: string | null }>(
    target,
    `SELECT "id" AS child, "pipelineId" AS "pipelineId" FROM "Task" UNION ALL SELECT "id", "pipelineId" FROM "Dataset" UNION ALL SELECT "id", "pipelineId" FROM "Run" ORDER BY child`,
  );
  return rows.map((r) => `${r.child}→${r.pipelineId}`);
}

const LINKS = ["d-1→p-1", "d-2→p-2", "d-3→p-3", "r-1→p-1", "r-2→p-2", "r-3→p-3", "t-1→p-1", "t-2→p-2", "t-3→p-3"];

function applyWith(target: DatabaseTarget, migrations: MigrationFile[]) {
  return target.provider === "sqlite" ? Promise.resolve().then(() => migrateSqlite(target.file, migrations)) : migratePostgres(target.url, migrations);
}

describe.each(providersUnderTest())("a migration of a parent table on a %s database with children", (provider) => {
  let target: DatabaseTarget;
  let drop: () => Promise<void>;
  let committed: MigrationFile[];

  beforeEach(async () => {
    ({ target, drop } = await emptyTarget(provider));
    await migrate(target, root);
    await seedChildren(target);
    committed = readMigrations(migrationsDir(provider, root));
  });
  afterEach(async () => drop());

  it("keeps every child's foreign key through the rebuild, and records the migration", async () => {
    expect(await childLinks(target)).toEqual(LINKS);
    const rebuild = migrationFile("29991231000000_pipeline_owner_optional", REBUILD_PIPELINE[provider]);
    const result = await applyWith(target, [...committed, rebuild]);
    expect(result.applied).toEqual(["29991231000000_pipeline_owner_optional"]);
    expect(await childLinks(target)).toEqual(LINKS);
    const pipelines = await query<{ id: string; owner: string | null }>(target, `SELECT "id", "owner" FROM "Pipeline" ORDER BY "id"`);
    expect(pipelines).toEqual([
      { id: "p-1", owner: "data-eng" },
      { id: "p-2", owner: "data-eng" },
      { id: "p-3", owner: "data-eng" },
    ]);
    // The constraint is still enforced after the migration: deleting a parent nulls its children.
    await query(target, `DELETE FROM "Pipeline" WHERE "id" = 'p-3'`);
    expect(await childLinks(target)).toEqual(["d-1→p-1", "d-2→p-2", "d-3→null", "r-1→p-1", "r-2→p-2", "r-3→null", "t-1→p-1", "t-2→p-2", "t-3→null"]);
    const recorded = await query<{ migration_name: string }>(target, `SELECT migration_name FROM "_prisma_migrations" WHERE migration_name = ?`, [
      rebuild.name,
    ]);
    expect(recorded).toEqual([{ migration_name: rebuild.name }]);
  });

  it("refuses a migration that leaves a dangling reference, with nothing of it applied", async () => {
    const bad = migrationFile("29991231000000_loses_pipeline_p2", DANGLING[provider]);
    const expected =
      provider === "sqlite"
        ? "migration 29991231000000_loses_pipeline_p2 refused, nothing applied: 3 foreign keys would point at no row: Dataset → Pipeline (1 row, rowid 2); Run → Pipeline (1 row, rowid 2); Task → Pipeline (1 row, rowid 2)"
        : /^migration 29991231000000_loses_pipeline_p2 failed: insert or update on table "Task" violates foreign key constraint "Task_pipelineId_fkey"/;
    await expect(applyWith(target, [...committed, bad])).rejects.toThrow(expected);
    expect(await childLinks(target)).toEqual(LINKS);
    const pipelines = await query<{ id: string; owner: string | null }>(target, `SELECT "id", "owner" FROM "Pipeline" ORDER BY "id"`);
    expect(pipelines.map((p) => p.id)).toEqual(["p-1", "p-2", "p-3"]);
    const tables =
      provider === "sqlite"
        ? await query<{ name: string }>(target, `SELECT name FROM sqlite_master WHERE name = 'new_Pipeline'`)
        : await query<{ name: string }>(target, `SELECT table_name AS name FROM information_schema.tables WHERE table_name = 'new_Pipeline'`);
    expect(tables).toEqual([]);
    const recorded = await query<{ n: number | string }>(target, `SELECT count(*) AS n FROM "_prisma_migrations" WHERE migration_name = ?`, [bad.name]);
    expect(Number(recorded[0]?.n)).toBe(0);
    // The constraint itself survived the refused migration.
    await expect(
      query(
        target,
        `INSERT INTO "Task" ("id", "nodeId", "namespace", "name", "pipelineId", "updatedAt") VALUES ('t-9', 'job:ns:t9', 'ns', 't9', 'p-404', '2026-12-01T00:00:00.000Z')`,
      ),
    ).rejects.toThrow(/FOREIGN KEY constraint failed|violates foreign key constraint/);
  });
});

import Database from "better-sqlite3";
import pg from "pg";
import { describe, expect, it } from "vitest";
import path from "node:path";
import { migrate, migrationsDir, readMigrations } from "./migrate";
import { emptyTarget, providersUnderTest } from "../testing/test-database";

const root = path.resolve(__dirname, "../../..");
const EXPECTED_TABLES = [
  "AlertDelivery",
  "AlertSend",
  "ApiToken",
  "AuditEntry",
  "Attempt",
  "Consumer",
  "Dataset",
  "ExternalDelivery",
  "Incident",
  "IngestedEvent",
  "InvalidKey",
  "OrchestratorConnection",
  "FrontierCertificate",
  "LineageEdge",
  "Notice",
  "PartitionKey",
  "PendingFold",
  "Pipeline",
  "Publish",
  "RejectedEvent",
  "RepairClaim",
  "RepairPlan",
  "Run",
  "Setting",
  "SourceCount",
  "SourceCursor",
  "Task",
  "Team",
  "UnitChange",
  "UnitMark",
  "UnitStateKept",
  "UnitStateSnapshot",
  "User",
  "WarehouseConnection",
  "WarehouseCount",
  "WarehouseRow",
  "_prisma_migrations",
];

async function tablesAndLedger(target: Awaited<ReturnType<typeof emptyTarget>>["target"]) {
  if (target.provider === "sqlite") {
    const db = new Database(target.file, { readonly: true });
    const tables = (db.prepare(`SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%'`).all() as { name: string }[]).map(
      (r) => r.name,
    );
    const rows = db.prepare(`SELECT migration_name, checksum, finished_at FROM _prisma_migrations`).all() as {
      migration_name: string;
      checksum: string;
      finished_at: string | null;
    }[];
    db.close();
    return { tables: tables.sort(), rows };
  }
  const client = new pg.Client({ connectionString: target.url });
  await client.connect();
  const t = await client.query<{ table_name: string }>(`SELECT table_name FROM information_schema.tables WHERE table_schema='public'`);
  const m = await client.query(`SELECT migration_name, checksum, finished_at FROM _prisma_migrations`);
  await client.end();
  return { tables: t.rows.map((r) => r.table_name).sort(), rows: m.rows };
}

describe.each(providersUnderTest())("migrations on an empty %s database (offline, no Prisma engine)", (provider) => {
  it("applies every committed migration, records it as Prisma does, and is idempotent", async () => {
    const { target, drop } = await emptyTarget(provider);
    try {
      const files = readMigrations(migrationsDir(provider, root));
      expect(files.length).toBeGreaterThan(0);
      const first = await migrate(target, root);
      expect(first.applied).toEqual(files.map((f) => f.name));
      const { tables, rows } = await tablesAndLedger(target);
      expect(tables).toEqual([...EXPECTED_TABLES].sort());
      expect(rows.map((r) => r.migration_name)).toEqual(files.map((f) => f.name));
      expect(rows.map((r) => r.checksum)).toEqual(files.map((f) => f.checksum));
      expect(rows.every((r) => r.finished_at !== null)).toBe(true);
      const second = await migrate(target, root);
      expect(second.applied).toEqual([]);
      expect(second.alreadyApplied.sort()).toEqual(files.map((f) => f.name));
    } finally {
      await drop();
    }
  });
});

import { resolveDatabaseTarget, redact, type DatabaseTarget } from "./database-url";
import { migrate, type MigrateResult } from "./migrate";

/** Validates DATABASE_URL and applies pending migrations: what every entry point does first. */
export async function ensureDatabase(root = process.cwd()): Promise<{ target: DatabaseTarget; result: MigrateResult }> {
  const target = resolveDatabaseTarget();
  const result = await migrate(target, root);
  return { target, result };
}

export function describeTarget(target: DatabaseTarget): string {
  return target.provider === "sqlite" ? `SQLite ${target.file}` : `PostgreSQL ${redact(target.url)}`;
}

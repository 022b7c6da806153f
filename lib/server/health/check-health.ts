import { getDb, databaseProvider } from "../db/client";

/** Liveness plus a real round trip to the database, for load balancers and the e2e harness. */
export async function checkHealth(): Promise<{ status: "ok"; database: string; checkedAt: string }> {
  await getDb().pipeline.count();
  return { status: "ok", database: databaseProvider(), checkedAt: new Date().toISOString() };
}

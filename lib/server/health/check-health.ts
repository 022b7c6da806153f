import { databaseProvider } from "../repositories/database";

const startedAt = new Date();

/**
 * Liveness: the process answers. No database round trip — a database outage must not get every
 * console restarted; /api/ready is what a balancer routes by.
 */
export async function checkHealth(): Promise<{ status: "ok"; database: string; startedAt: string; checkedAt: string }> {
  return { status: "ok", database: databaseProvider(), startedAt: startedAt.toISOString(), checkedAt: new Date().toISOString() };
}

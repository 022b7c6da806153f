import type { Db } from "../repositories/database";
import { pruneIngestedEvents, pruneRejections } from "../repositories/ingestion/ingested-events";

export interface RetentionPolicy {
  /** Raw OpenLineage events older than this many days lose their body; 0 keeps them forever. */
  eventsDays: number;
  /** Rejection-log rows older than this many days are deleted (the log also keeps at most 50,000 rows). */
  rejectionsDays: number;
}

/**
 * From the environment (docs/operations.md, "Retention"):
 *   REPARO_RETAIN_EVENTS_DAYS      raw ingested events (default 90; 0 = forever)
 *   REPARO_RETAIN_REJECTIONS_DAYS  the ingestion page's rejection log (default 30)
 */
export function readRetentionPolicy(env: Readonly<Record<string, string | undefined>> = process.env): RetentionPolicy {
  const days = (name: string, fallback: number, min: number): number => {
    const raw = env[name]?.trim();
    if (!raw) return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be a whole number of days ≥ ${min}, got "${raw}"`);
    return n;
  };
  return { eventsDays: days("REPARO_RETAIN_EVENTS_DAYS", 90, 0), rejectionsDays: days("REPARO_RETAIN_REJECTIONS_DAYS", 30, 1) };
}

/**
 * The `retention` job (hourly). What the ledger, runs and attempts recorded from an event stays:
 * only the raw body goes. The event's row (hash, job, run, times) stays, so a re-sent copy is
 * still a duplicate, and a late event of a run past retention is stored without refolding the
 * run from the few events left (which would undo what the pruned ones said).
 */
export async function applyRetention(db: Db, now: Date, policy: RetentionPolicy = readRetentionPolicy()): Promise<{ events: number; rejections: number }> {
  const events = policy.eventsDays > 0 ? await pruneIngestedEvents(db, new Date(now.getTime() - policy.eventsDays * 86_400_000)) : 0;
  const rejections = await pruneRejections(db, now, policy.rejectionsDays);
  return { events, rejections };
}

import type { OpenFailure } from "@/lib/contracts/overview";
import type { Db } from "../repositories/database";
import { latestAttemptsOf, type LatestAttemptInfo } from "../repositories/ledger/latest-attempts";
import type { DatasetStateCodes } from "./state-service";
import { compositeKey } from "@/lib/domain/composite-key";

type FailedUnit = { task: NonNullable<DatasetStateCodes["writer"]>; unitKey: string; partialRows: number | null };

// Per version of a dataset's states (never changed in place): found once, not on every read.
const FAILED = new WeakMap<DatasetStateCodes, FailedUnit[]>();

function failedOnce(d: DatasetStateCodes): FailedUnit[] {
  let f = FAILED.get(d);
  if (!f) {
    f = d.writer
      ? [...d.problems]
          .filter(([, r]) => r.state === "failed")
          .map(([o, r]) => ({ task: d.writer!, unitKey: d.space.keyAt(o), partialRows: r.facts.partialRows }))
      : [];
    FAILED.set(d, f);
  }
  return f;
}

/**
 * The open failures among the unit states — units in state "failed" (latest attempt failed,
 * nothing published since) — with their tries, partial rows and last error. The overview and the
 * lineage page's failure list both describe failures this way.
 *
 * Described once per version of a dataset's states: what describes a failure (its attempts) is
 * what the states are computed from, so an attempt written gives the dataset new states and its
 * failures are read again; the others are not. (Read again on every overview, a big world's
 * failures held each overview up: docs/units.md.)
 */
export async function describeOpenFailures(db: Db, states: readonly DatasetStateCodes[]): Promise<OpenFailure[]> {
  const unread = states.filter((d) => !DESCRIBED.has(d) && failedOnce(d).length > 0);
  const pairs = unread.flatMap(failedOnce);
  const latest = await latestAttemptsOf(
    db,
    pairs.map((p) => ({ taskId: p.task.id, unitKey: p.unitKey })),
  );
  for (const d of unread)
    DESCRIBED.set(
      d,
      failedOnce(d).map((p) => described(p, latest)),
    );
  return states.flatMap((d) => DESCRIBED.get(d) ?? []);
}

const DESCRIBED = new WeakMap<DatasetStateCodes, OpenFailure[]>();

function described(p: FailedUnit, latest: Map<string, LatestAttemptInfo>): OpenFailure {
  const info = latest.get(compositeKey(p.task.id, p.unitKey));
  return {
    taskNodeId: p.task.nodeId,
    taskName: p.task.name,
    pipeline: p.task.pipeline,
    unitKey: p.unitKey,
    tries: info?.tries ?? 0,
    partialRows: p.partialRows,
    error: info?.error ?? null,
    runId: info?.runId ?? "",
    failedAt: info?.endedAt?.toISOString() ?? null,
  };
}

import { UnitSet, toKeyRanges } from "@/lib/domain/unit-set";
import type { UnitState } from "@/lib/domain/unit-state";
import type { LedgerFinding, Overview } from "@/lib/contracts/overview";
import { getDb, type Db } from "../repositories/database";
import { describeOpenFailures } from "../units/describe-open-failures";
import { listInvalidKeys } from "../repositories/ledger/unit-ledger";
import { getUnitStateSnapshot, statusOf, type DatasetStateCodes } from "../units/state-service";

/** States in which an expected unit has no publish at all. */
const UNPUBLISHED: ReadonlySet<UnitState> = new Set(["missing", "failed", "blocked"]);

/**
 * The overview: open failures (latest attempt failed, nothing published since) and what the
 * ledger says is missing, duplicated, empty, divergent from its source count or built on such a
 * unit (suspect) — independent of run status (seed 000), from the one unit-state service: only
 * the units that are not healthy are looked at, never the whole ledger.
 */
export async function getOverview(now: Date, db: Db = getDb()): Promise<Overview> {
  const [snapshot, invalid] = await Promise.all([getUnitStateSnapshot(db, now), listInvalidKeys(db)]);
  const states = snapshot.datasets;
  const failures = await describeOpenFailures(db, states);
  const findings = states.flatMap(findingsOnce).sort(byPipelineThenSeverity);
  const count = (f: LedgerFinding["finding"]) => findings.filter((x) => x.finding === f).reduce((n, x) => n + x.unitCount, 0);
  const blockedUnits = states.reduce((n, d) => n + blockedOnce(d), 0);
  const invalidKeys = [
    ...invalid.map((k) => ({ nodeId: k.nodeId, unitKey: k.unitKey, reason: k.reason, observedAt: k.observedAt.toISOString() })),
    ...states.flatMap((d) =>
      d.invalidLedgerKeys.map((k) => ({
        nodeId: d.dataset.nodeId,
        unitKey: k.key,
        reason: `in the ledger, but ${k.reason}`,
        observedAt: snapshot.computedAt.toISOString(),
      })),
    ),
  ];
  return {
    generatedAt: now.toISOString(),
    states: await statusOf(db, snapshot, now),
    counts: {
      openFailures: failures.length,
      missingUnits: count("missing"),
      blockedUnits,
      duplicateUnits: count("duplicate"),
      emptyUnits: count("empty"),
      divergentUnits: count("divergent"),
      suspectUnits: count("suspect"),
      invalidKeys: invalidKeys.length,
    },
    failures,
    findings,
    invalidKeys,
  };
}

const SEVERITY: LedgerFinding["finding"][] = ["missing", "duplicate", "divergent", "empty", "suspect"];

function byPipelineThenSeverity(a: LedgerFinding, b: LedgerFinding): number {
  return (
    (a.pipeline ?? "").localeCompare(b.pipeline ?? "") ||
    SEVERITY.indexOf(a.finding) - SEVERITY.indexOf(b.finding) ||
    a.datasetName.localeCompare(b.datasetName)
  );
}

const FINDING_OF: Partial<Record<UnitState, LedgerFinding["finding"]>> = { duplicate: "duplicate", empty: "empty", divergent: "divergent", suspect: "suspect" };

// A dataset's states are never changed in place (an update replaces them): what the overview
// derives from them is computed once per version, so a read after a write redoes only the
// datasets the write reached.
const FINDINGS = new WeakMap<DatasetStateCodes, LedgerFinding[]>();
const BLOCKED = new WeakMap<DatasetStateCodes, number>();

function findingsOnce(d: DatasetStateCodes): LedgerFinding[] {
  let f = FINDINGS.get(d);
  if (!f) FINDINGS.set(d, (f = findingsOf(d)));
  return f;
}

function blockedOnce(d: DatasetStateCodes): number {
  let n = BLOCKED.get(d);
  if (n === undefined) BLOCKED.set(d, (n = [...d.problems.values()].filter((r) => r.state === "blocked").length));
  return n;
}

/** What one finding row carries: the overview stays a summary however many units are bad (the matrix has them all). */
const MAX_RANGES = 20;
const MAX_DETAILS = 5;

function findingsOf(d: DatasetStateCodes): LedgerFinding[] {
  const groups = new Map<LedgerFinding["finding"], number[]>();
  for (const [o, r] of [...d.problems].sort(([a], [b]) => a - b)) {
    const finding = UNPUBLISHED.has(r.state) ? "missing" : FINDING_OF[r.state];
    if (!finding) continue;
    const group = groups.get(finding);
    if (group) group.push(o);
    else groups.set(finding, [o]);
  }
  return [...groups].map(([finding, ordinals]) => {
    const ranges = toKeyRanges(UnitSet.fromOrdinals(ordinals), d.space);
    return {
      datasetNodeId: d.dataset.nodeId,
      datasetName: d.dataset.name,
      pipeline: d.dataset.pipeline,
      finding,
      units: ranges.slice(0, MAX_RANGES),
      rangesOmitted: Math.max(0, ranges.length - MAX_RANGES),
      unitCount: ordinals.length,
      details: ordinals.slice(0, MAX_DETAILS).map((o) => {
        const r = d.problems.get(o)!;
        return `${d.space.keyAt(o)}: ${r.state}${r.reasons[0] ? ` — ${r.reasons[0]}` : ""}`;
      }),
    };
  });
}

import { UnitSet, toKeyRanges } from "@/lib/domain/unit-set";
import type { UnitState } from "@/lib/domain/unit-state";
import type { LedgerFinding, Overview } from "@/lib/contracts/overview";
import { getDb, type Db } from "../db/client";
import { describeOpenFailures } from "../units/describe-open-failures";
import { listInvalidKeys } from "../repositories/ledger";
import { loadUnitStates, type DatasetUnitStates } from "../units/load-unit-states";

/** States in which an expected unit has no publish at all. */
const UNPUBLISHED: ReadonlySet<UnitState> = new Set(["missing", "failed", "blocked"]);

/**
 * The overview: open failures (latest attempt failed, nothing published since) and what the
 * ledger says is missing, duplicated, empty or divergent from its source count — independent of run status (seed 000).
 */
export async function getOverview(now: Date, db: Db = getDb()): Promise<Overview> {
  const [states, invalid] = await Promise.all([loadUnitStates(db, now), listInvalidKeys(db)]);
  const failures = await describeOpenFailures(db, states);
  const findings = states.flatMap(findingsOf).sort(byPipelineThenSeverity);
  const count = (f: LedgerFinding["finding"]) => findings.filter((x) => x.finding === f).reduce((n, x) => n + x.unitCount, 0);
  const blockedUnits = states.reduce((n, d) => n + d.units.filter((u) => u.result.state === "blocked").length, 0);
  const invalidKeys = [
    ...invalid.map((k) => ({ nodeId: k.nodeId, unitKey: k.unitKey, reason: k.reason, observedAt: k.observedAt.toISOString() })),
    ...states.flatMap((d) => d.invalidLedgerKeys.map((k) => ({ nodeId: d.dataset.nodeId, unitKey: k.key, reason: `in the ledger, but ${k.reason}`, observedAt: now.toISOString() }))),
  ];
  return {
    generatedAt: now.toISOString(),
    counts: {
      openFailures: failures.length,
      missingUnits: count("missing"),
      blockedUnits,
      duplicateUnits: count("duplicate"),
      emptyUnits: count("empty"),
      divergentUnits: count("divergent"),
      invalidKeys: invalidKeys.length,
    },
    failures,
    findings,
    invalidKeys,
  };
}

const SEVERITY: LedgerFinding["finding"][] = ["missing", "duplicate", "divergent", "empty"];

function byPipelineThenSeverity(a: LedgerFinding, b: LedgerFinding): number {
  return (a.pipeline ?? "").localeCompare(b.pipeline ?? "") || SEVERITY.indexOf(a.finding) - SEVERITY.indexOf(b.finding) || a.datasetName.localeCompare(b.datasetName);
}

function findingsOf(d: DatasetUnitStates): LedgerFinding[] {
  const groups: [LedgerFinding["finding"], (s: UnitState) => boolean][] = [
    ["missing", (s) => UNPUBLISHED.has(s)],
    ["duplicate", (s) => s === "duplicate"],
    ["empty", (s) => s === "empty"],
    ["divergent", (s) => s === "divergent"],
  ];
  return groups.flatMap(([finding, test]) => {
    const units = d.units.filter((u) => test(u.result.state));
    if (units.length === 0) return [];
    return [{
      datasetNodeId: d.dataset.nodeId,
      datasetName: d.dataset.name,
      pipeline: d.dataset.pipeline,
      finding,
      units: toKeyRanges(UnitSet.fromOrdinals(units.map((u) => u.ordinal)), d.space),
      unitCount: units.length,
      details: units.map((u) => `${u.key}: ${u.result.state}${u.result.reasons[0] ? ` — ${u.result.reasons[0]}` : ""}`),
    }];
  });
}

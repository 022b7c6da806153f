import { AlertGroupSchema, AlertSchema, AlertsSchema, type AlertGroupView, type Alerts, type AlertView } from "@/lib/contracts/alerts";
import { allowedActions } from "@/lib/domain/incident-lifecycle";
import { IncidentDetailSchema, type IncidentDetail } from "@/lib/contracts/incidents";
import { LedgerFindingSchema, OpenFailureSchema, OverviewSchema, type LedgerFinding, type OpenFailure, type Overview } from "@/lib/contracts/overview";
import {
  PreconditionSchema,
  PreconditionsViewSchema,
  ProgressViewSchema,
  UnitValidationSchema,
  type PreconditionsView,
  type ProgressView,
  type UnitValidationView,
} from "@/lib/contracts/repair";
import { runAllowedActions, type RepairRunStatus } from "@/lib/domain/repair-run-lifecycle";
import {
  MatrixInvalidKeySchema,
  MatrixRowSchema,
  MatrixSectionSchema,
  UNIT_STATES,
  UnitDetailSchema,
  UnitMatrixSchema,
  type MatrixInvalidKey,
  type MatrixRow,
  type MatrixSection,
  type UnitDetail,
  type UnitMatrix,
} from "@/lib/contracts/units";
import { CompletenessSchema, DatasetOptionSchema, type Completeness, type CompletenessReason, type DatasetOption } from "@/lib/contracts/completeness";
import { AuditListEntrySchema, type AuditListEntry } from "@/lib/contracts/audit";
import { HistorySchema, RepairRowSchema, type History, type RepairRow } from "@/lib/contracts/history";
import type { z } from "zod";

type Precondition = z.infer<typeof PreconditionSchema>;

/**
 * Typed fixture builders: a value of each contract carrying the demo's facts, overridden per test,
 * and parsed with the contract's own schema — a builder that drifts from the contract fails here,
 * not as a puzzling assertion in a component test.
 */
export function anOpenFailure(over: Partial<OpenFailure> = {}): OpenFailure {
  return OpenFailureSchema.parse({
    taskNodeId: "job:orders:stg_orders",
    taskName: "stg_orders",
    pipeline: "orders",
    unitKey: "2026-08-17",
    tries: 2,
    partialRows: 20,
    error: "could not open a warehouse session: too many connections for role etl_orders",
    runId: "run-2026-08-17",
    failedAt: "2026-08-18T02:10:00.000Z",
    ...over,
  });
}

export function aFinding(over: Partial<LedgerFinding> = {}): LedgerFinding {
  return LedgerFindingSchema.parse({
    datasetNodeId: "dataset:warehouse:stg_orders",
    datasetName: "stg_orders",
    pipeline: "orders",
    finding: "duplicate",
    units: [["2026-08-10", "2026-08-10"]],
    rangesOmitted: 0,
    unitCount: 1,
    details: ["2026-08-10: append attempts wrote 66 rows for 44 expected"],
    ...over,
  });
}

export function anOverview(over: Partial<Overview> = {}): Overview {
  return OverviewSchema.parse({
    generatedAt: "2026-08-26T06:00:00.000Z",
    states: { computing: null, refreshing: false, unfolded: null },
    counts: { openFailures: 3, missingUnits: 23, blockedUnits: 19, duplicateUnits: 1, emptyUnits: 0, divergentUnits: 3, suspectUnits: 16, invalidKeys: 2 },
    failures: [anOpenFailure(), anOpenFailure({ unitKey: "2026-08-23", partialRows: 0, error: "raw_orders 2026-08-23: object store returned 503 SlowDown" })],
    findings: [aFinding()],
    invalidKeys: [
      {
        nodeId: "job:ml:build_order_features",
        unitKey: "2026-8-24",
        reason: '"2026-8-24" is not a day key (expected yyyy-MM-dd)',
        observedAt: "2026-08-25T00:00:00.000Z",
      },
    ],
    ...over,
  });
}

export function anAlert(over: Partial<AlertView> = {}): AlertView {
  return AlertSchema.parse({
    id: "a1",
    rule: "published_more_than_once",
    source: "data",
    severity: "critical",
    datasetNodeId: "dataset:warehouse:stg_orders",
    datasetName: "stg_orders",
    pipeline: "orders",
    taskNodeId: "job:orders:stg_orders",
    units: ["2026-08-10"],
    unitCount: 1,
    title: "1 unit holding more than one copy",
    details: ["2026-08-10: published 2×"],
    detailsOmitted: 0,
    incidentHref: "/incidents/new?node=job%3Aorders%3Astg_orders&units=2026-08-10",
    delivered: false,
    ...over,
  });
}

export function someAlerts(over: Partial<Alerts> = {}): Alerts {
  return AlertsSchema.parse({
    generatedAt: "2026-08-26T06:00:00.000Z",
    states: { computing: null, refreshing: false, unfolded: null },
    counts: { task: 1, data: 1, undelivered: 2 },
    omitted: 0,
    defaultGraceHours: 6,
    webhook: { configured: false, target: null },
    alerts: [
      anAlert(),
      anAlert({
        id: "a2",
        rule: "task_failed",
        source: "task",
        unitCount: 2,
        units: ["2026-08-17", "2026-08-23"],
        title: "2 units still failing after the last try",
      }),
    ],
    groups: [anAlertGroup()],
    deliveries: [],
    ...over,
  });
}

/** The demo's duplicated 2026-08-10 as GET /api/v1/alerts groups it. */
export function anAlertGroup(over: Partial<AlertGroupView> = {}): AlertGroupView {
  return AlertGroupSchema.parse({
    id: "roots|0123456789abcdef",
    title: "stg_orders 2026-08-10: duplicated",
    severity: "critical",
    severityWhy: ["2 of its alerts are critical", "1 unit already delivered outside the platform"],
    roots: [
      {
        taskNodeId: "job:orders:stg_orders",
        datasetNodeId: "dataset:warehouse:stg_orders",
        name: "stg_orders",
        units: [{ key: "2026-08-10", state: "duplicate", words: "duplicated" }],
      },
    ],
    affected: [
      { datasetNodeId: "dataset:warehouse:stg_orders", name: "stg_orders", pipeline: "orders", units: 1 },
      { datasetNodeId: "dataset:warehouse:weekly_revenue_export", name: "weekly_revenue_export", pipeline: "finance", units: 1 },
    ],
    affectedUnits: 2,
    deliveredOutside: ["weekly_revenue_export 2026-W33 sent to sftp://finance.example/weekly at 2026-08-17T06:00:00.000Z"],
    members: [
      { id: "a1", rule: "published_more_than_once", severity: "critical", datasetName: "stg_orders", unitCount: 1 },
      { id: "a3", rule: "consumed_outside", severity: "critical", datasetName: "weekly_revenue_export", unitCount: 1 },
    ],
    incidentHref: "/incidents/new?node=job%3Aorders%3Astg_orders&units=2026-08-10",
    handledBy: null,
    ...over,
  });
}

export function anIncident(over: Partial<IncidentDetail> = {}): IncidentDetail {
  return IncidentDetailSchema.parse({
    id: "inc-3",
    title: "stg_orders failed for 2026-08-17",
    status: "open",
    pipeline: "orders",
    openedBy: "demo-commander",
    openedAt: "2026-08-18T03:00:00.000Z",
    detectedAt: "2026-08-18T02:10:00.000Z",
    resolvedAt: null,
    closedReason: null,
    originRunId: "run-2026-08-17",
    failedPairs: [{ nodeId: "job:orders:stg_orders", units: ["2026-08-17"] }],
    repairs: 0,
    severity: {
      level: "SEV2",
      source: "computed",
      reasons: ["read outside the platform, not sent yet: weekly_revenue_export 2026-W34 → SEV2", "7 datasets, 15 units reached → SEV3"],
      setBy: null,
      setAt: "2026-08-18T03:00:00.000Z",
      computed: {
        level: "SEV2",
        reasons: ["read outside the platform, not sent yet: weekly_revenue_export 2026-W34 → SEV2", "7 datasets, 15 units reached → SEV3"],
        at: "2026-08-18T03:00:00.000Z",
      },
    },
    commander: { userId: "demo-commander", name: "Dana Okafor (incident commander)", assigned: false },
    owners: [
      { name: "finance-team", people: ["Ines Duarte"], nodeIds: ["job:finance:weekly_revenue_export", "dataset:finance:weekly_revenue_export"] },
      { name: "orders-team", people: [], nodeIds: ["job:orders:stg_orders", "dataset:warehouse:stg_orders"] },
    ],
    timeline: [],
    runs: [],
    confirmedPlanId: null,
    ...over,
    allowedActions: over.allowedActions ?? allowedActions(over.status ?? "open"),
  });
}

export function aCheck(over: Partial<Precondition> = {}): Precondition {
  return PreconditionSchema.parse({
    key: "idempotent",
    question: "Does a second run replace the unit rather than add to it? (idempotent)",
    verdict: "safe",
    detail: "stg_orders writes with replace: a re-run overwrites its unit.",
    howToKnow: null,
    ...over,
  });
}

export function somePreconditions(over: Partial<PreconditionsView> = {}): PreconditionsView {
  return PreconditionsViewSchema.parse({
    tasks: [{ taskNodeId: "job:orders:stg_orders", name: "stg_orders", pipeline: "orders", units: [["2026-08-17", "2026-08-17"]], checks: [aCheck()] }],
    ...over,
  });
}

export function aUnitValidation(over: Partial<UnitValidationView> = {}): UnitValidationView {
  return UnitValidationSchema.parse({
    datasetNodeId: "dataset:warehouse:stg_orders",
    name: "stg_orders",
    unitKey: "2026-08-17",
    passed: true,
    state: "repaired",
    checks: { inLedger: true, publishedOnce: true, nonEmpty: true, reconciles: true, notStale: true },
    inputVersion: "raw_orders@2026-08-26",
    rowCount: 40,
    sourceCount: 40,
    publishCount: 2,
    rowsInWarehouse: null,
    failures: [],
    notes: [],
    mark: null,
    ...over,
  });
}

/** stg_orders over four days of the demo: published, published, published, failed (2026-08-17). */
export function aMatrixRow(over: Partial<MatrixRow> = {}): MatrixRow {
  return MatrixRowSchema.parse({
    nodeId: "dataset:warehouse:stg_orders",
    name: "stg_orders",
    pipeline: "orders",
    writerNodeId: "job:orders:stg_orders",
    cells: "pppf",
    note: null,
    ...over,
  });
}

export function aMatrixSection(over: Partial<MatrixSection> = {}): MatrixSection {
  return MatrixSectionSchema.parse({
    id: "day:UTC",
    label: "Daily (UTC)",
    grain: "day",
    columns: ["2026-08-14", "2026-08-15", "2026-08-16", "2026-08-17"],
    rows: [aMatrixRow()],
    ...over,
  });
}

export function anInvalidKey(over: Partial<MatrixInvalidKey> = {}): MatrixInvalidKey {
  return MatrixInvalidKeySchema.parse({
    nodeId: "job:ml:build_order_features",
    unitKey: "2026-8-24",
    reason: '"2026-8-24" is not a day key (expected yyyy-MM-dd)',
    source: "demo",
    observedAt: "2026-08-24T03:00:00.000Z",
    ...over,
  });
}

export function aUnitMatrix(over: Partial<UnitMatrix> = {}): UnitMatrix {
  const counts = Object.fromEntries(UNIT_STATES.map((s) => [s, 0]));
  return UnitMatrixSchema.parse({
    generatedAt: "2026-08-25T12:00:00.000Z",
    states: { computing: null, refreshing: false, unfolded: null },
    counts: { ...counts, published: 3, failed: 1 },
    pipelines: ["finance", "meters", "ml", "orders"],
    sections: [aMatrixSection()],
    invalidKeys: [],
    ...over,
  });
}

/** stg_orders 2026-08-17: failed twice, 20 partial rows left. */
export function aUnitDetail(over: Partial<UnitDetail> = {}): UnitDetail {
  return UnitDetailSchema.parse({
    datasetNodeId: "dataset:warehouse:stg_orders",
    datasetName: "stg_orders",
    pipeline: "orders",
    unitKey: "2026-08-17",
    state: "failed",
    reasons: ["its latest attempt failed"],
    writer: {
      nodeId: "job:orders:stg_orders",
      name: "stg_orders",
      writeMode: "append",
      writeModeFrom: "declared",
      owner: "orders-team",
      ownerFrom: "declared",
    },
    publishes: [],
    attempts: [],
    sourceCount: 40,
    deviation: null,
    tolerance: 0.05,
    partialRows: 20,
    latestRunId: null,
    interventions: [],
    ...over,
  });
}

/** The demo's revenue_daily for August 2026, cut to 2026-08-10 (built on a duplicated stg_orders day). */
export function aCompleteness(over: Partial<Completeness> = {}): Completeness {
  const reason = (r: Partial<CompletenessReason>): CompletenessReason => ({
    datasetNodeId: "dataset:warehouse:revenue_daily",
    datasetName: "revenue_daily",
    role: "target",
    unitKey: "2026-08-10",
    state: "suspect",
    reason:
      "built from upstream dataset:warehouse:fct_orders 2026-08-10, which is divergent from its source count: published, but its figures carry that problem",
    gap: false,
    unitHref: "/units/dataset:warehouse:revenue_daily?unit=2026-08-10",
    incidents: [],
    rows: 5,
    sourceCount: null,
    writerNodeId: "job:orders:revenue_daily",
    builtFrom: { datasetName: "fct_orders", unitKey: "2026-08-10", problem: "divergent from its source count" },
    ...r,
  });
  const reasons = [
    reason({}),
    reason({
      datasetNodeId: "dataset:warehouse:stg_orders",
      datasetName: "stg_orders",
      role: "upstream",
      state: "duplicate",
      rows: 66,
      sourceCount: 44,
      writerNodeId: "job:orders:stg_orders",
      builtFrom: null,
      reason: "append attempts wrote 66 rows for 44 expected: a failed attempt's 22 partial rows were kept and the retry appended a full copy",
      unitHref: "/units/dataset:warehouse:stg_orders?unit=2026-08-10",
    }),
  ];
  return CompletenessSchema.parse({
    dataset: { nodeId: "dataset:warehouse:revenue_daily", name: "revenue_daily", pipeline: "orders", grain: "day" },
    period: { from: "2026-08-01", to: "2026-08-25" },
    checkedAt: "2026-08-26T06:00:00.000Z",
    verdict: "incomplete",
    expectedUnits: 25,
    reasons,
    byUnit: [
      {
        unitKey: "2026-08-10",
        headline: "built on duplicated upstream rows: stg_orders",
        reasons,
        plain: {
          sentence:
            "revenue_daily for 2026-08-10 is probably overstated by about 50 %: it was built from stg_orders 2026-08-10, which holds 66 rows where the source has 44 (22 rows extra).",
          effect: { kind: "overstated", percent: 50 },
          onIt: [],
          openIncidentHref: "/incidents/new?node=job%3Aorders%3Astg_orders&units=2026-08-10",
        },
      },
    ],
    evidence: [
      {
        datasetNodeId: "dataset:warehouse:revenue_daily",
        datasetName: "revenue_daily",
        role: "target",
        unitRanges: [["2026-08-01", "2026-08-25"]],
        units: 25,
        healthyUnits: 22,
        rows: 110,
        reconciledUnits: 0,
        inputVersions: [],
        oldestPublishAt: "2026-08-02T02:00:00.000Z",
        newestPublishAt: "2026-08-26T02:00:00.000Z",
        notes: ["22 units without a source count: presence and uniqueness checked, row counts not reconciled"],
      },
    ],
    freshness: { units: [], medianAgeMs: null, minAgeMs: null, maxAgeMs: null, outliers: [], unpublished: [] },
    frontiers: [],
    ...over,
  });
}

export function aDatasetOption(over: Partial<DatasetOption> = {}): DatasetOption {
  return DatasetOptionSchema.parse({
    nodeId: "dataset:warehouse:revenue_daily",
    name: "revenue_daily",
    pipeline: "orders",
    grain: "day",
    firstKey: "2026-05-18",
    lastKey: "2026-08-25",
    ...over,
  });
}

/** An incident.resolved entry of the demo's 2026-08-17 incident, listed with the incident as it stands now. */
export function anAuditListEntry(over: Partial<AuditListEntry> = {}): AuditListEntry {
  return AuditListEntrySchema.parse({
    seq: 12,
    kind: "incident.opened",
    actor: "demo-commander",
    actorRole: "commander",
    at: "2026-08-26T06:00:00.000Z",
    reason: "stg_orders failed twice",
    incidentId: "inc-3",
    targets: [{ nodeId: "job:orders:stg_orders", units: ["2026-08-17"] }],
    before: null,
    after: { status: "open" },
    prevHash: "a".repeat(64),
    hash: "b".repeat(64),
    incident: { id: "inc-3", title: "stg_orders 2026-08-17 failed", status: "resolved" },
    ...over,
  });
}

/** The history's answer with no repair matching the filters, but every choice of the unfiltered set. */
export function aHistory(over: Partial<History> = {}): History {
  return HistorySchema.parse({
    generatedAt: "2026-12-02T10:00:00.000Z",
    repairs: [],
    totals: { repairs: 0, incidents: 0, medianResolutionMs: null, p90ResolutionMs: null, unitsRecomputed: 0, fullRerunUnits: 0, markSuccess: 0, skips: 0 },
    weekly: [],
    offenders: [],
    compute: [],
    interventions: [],
    interventionKinds: [],
    filters: { pipelines: ["meters", "orders"], tasks: ["job:meters:land_readings", "job:orders:stg_orders"], owners: ["meters-team", "orders-team"] },
    ...over,
  });
}

/** The demo's 2026-08-17 repair: failed in August (its story's date), opened and repaired on 2026-12-02. */
export function aRepairRow(over: Partial<RepairRow> = {}): RepairRow {
  return RepairRowSchema.parse({
    runId: "rep-1",
    repairNumber: 1,
    status: "succeeded",
    pipeline: "orders",
    rootRunId: "root-1",
    incident: { id: "inc-1", title: "stg_orders 2026-08-17 failed", status: "resolved", href: "/incidents/inc-1" },
    tasks: ["job:orders:stg_orders"],
    owners: ["orders-team"],
    failureCategories: ["connection"],
    failureAt: "2026-08-18T02:11:00.000Z",
    detectedAt: "2026-08-18T02:00:00.000Z",
    openedAt: "2026-12-02T10:00:00.000Z",
    repairStartedAt: "2026-12-02T10:02:00.000Z",
    repairEndedAt: "2026-12-02T10:05:00.000Z",
    validatedAt: "2026-12-02T10:07:00.000Z",
    resolvedAt: "2026-12-02T10:09:00.000Z",
    timeToDetectMs: Date.parse("2026-12-02T10:00:00Z") - Date.parse("2026-08-18T02:11:00Z"),
    timeToRepairMs: 5 * 60_000,
    timeToValidateMs: 2 * 60_000,
    timeToResolutionMs: 9 * 60_000,
    unitsRecomputed: 19,
    pairsPlanned: 19,
    fullRerunUnits: 600,
    ...over,
  });
}

/** A repair run's progress: three pairs of stg_orders and fct_orders, their statuses and the run's status as given; the run's actions from its lifecycle table. */
export function aProgress(status: RepairRunStatus, pairs: ProgressView["pairs"][number]["status"][] = ["succeeded", "succeeded", "succeeded"]): ProgressView {
  const names = [
    ["job:orders:stg_orders", "stg_orders", "2026-08-17", 0],
    ["job:orders:stg_orders", "stg_orders", "2026-08-23", 0],
    ["job:orders:fct_orders", "fct_orders", "2026-08-17", 1],
  ] as const;
  const rows = pairs.map((p, i) => ({
    taskNodeId: names[i]![0],
    name: names[i]![1],
    unitKey: names[i]![2],
    wave: names[i]![3],
    status: p,
    rows: p === "succeeded" ? 40 : null,
    error: p === "failed" ? "task failed" : null,
  }));
  const count = (...s: string[]) => rows.filter((r) => s.includes(r.status)).length;
  return ProgressViewSchema.parse({
    run: {
      id: "run-9",
      status,
      allowedActions: runAllowedActions(status),
      repairNumber: 1,
      rootRunId: "run-2026-08-17",
      startedAt: "2026-08-18T03:10:00.000Z",
      endedAt: status === "queued" || status === "running" ? null : "2026-08-18T03:12:00.000Z",
    },
    total: rows.length,
    done: count("succeeded", "failed", "upstream_failed"),
    succeeded: count("succeeded"),
    failed: count("failed", "upstream_failed"),
    pairs: rows,
    dispatched: [],
  });
}

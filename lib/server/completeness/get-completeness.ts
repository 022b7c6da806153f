import { closure } from "@/lib/domain/closure";
import { completenessCertificate, freshnessDistribution, type CompletenessGap } from "@/lib/domain/completeness";
import { nodeName, type DatasetId } from "@/lib/domain/ids";
import { buildLineageGraph } from "@/lib/domain/lineage-graph";
import { toKeyRanges } from "@/lib/domain/unit-set";
import type { Completeness, CompletenessQuery, CompletenessReason } from "@/lib/contracts/completeness";
import { getDb, type Db } from "../repositories/database";
import { listDatasets, listEdgesAt, listTasks } from "../repositories/lineage/catalog-reads";
import { listCertificatesOf } from "../repositories/completeness/frontier-certificates";
import { listOpenIncidents, namesUnit, type IncidentRef } from "../repositories/incidents/open-incidents";
import { buildLineageSpec } from "../lineage/lineage-spec";
import { explainUnits } from "./explain-units";
import { loadClosureFacts, type ClosureDataset } from "./load-closure-facts";
import { mergeFrontiers } from "./merge-frontiers";
import { RefusedError } from "@/lib/domain/errors";
import { getUnitStateSnapshotCovering, problemsLookup } from "../units/state-service";
import { findDataset, resolvePeriod } from "./resolve-period";

/**
 * "Is dataset D complete for period P?" (PRODUCT.md, seed 000): the domain's certificate over
 * D's expected units in P and every upstream unit they were built from — the upstream closure
 * through the lineage that holds now — with each reason linked to its unit and to the open
 * incident handling it, the per-unit age distribution, and any seed 002 frontier certificates.
 */
export async function getCompleteness(q: CompletenessQuery, now: Date, db: Db = getDb()): Promise<Completeness> {
  return (await certifyCompleteness(q, now, db)).answer;
}

/** What a certificate reads of the catalog at `now`: read once for several certificates (a pipeline's datasets). */
export interface CompletenessCatalog {
  datasets: Awaited<ReturnType<typeof listDatasets>>;
  tasks: Awaited<ReturnType<typeof listTasks>>;
  edges: Awaited<ReturnType<typeof listEdgesAt>>;
  graph: ReturnType<typeof buildLineageGraph>;
}

export async function loadCompletenessCatalog(db: Db, now: Date): Promise<CompletenessCatalog> {
  const [datasets, tasks, edges] = await Promise.all([listDatasets(db), listTasks(db), listEdgesAt(db, now)]);
  return { datasets, tasks, edges, graph: buildLineageGraph(buildLineageSpec(tasks, datasets, edges), { asOf: now.getTime() }) };
}

/** The certificate, and the period's expected keys of the dataset in order (what the status line counts through). */
export async function certifyCompleteness(
  q: CompletenessQuery,
  now: Date,
  db: Db = getDb(),
  catalog?: CompletenessCatalog,
): Promise<{ answer: Completeness; targetKeys: string[] }> {
  const { datasets, tasks, edges, graph } = catalog ?? (await loadCompletenessCatalog(db, now));
  const target = findDataset(datasets, q.dataset);
  const period = resolvePeriod(target, now, q.from, q.to);
  const up = closure(graph, [{ node: target.nodeId as DatasetId, units: period.units }], "upstream");
  const tasksById = new Map(tasks.map((t) => [t.id, t]));
  const writerOf = new Map(edges.filter((e) => e.direction === "write" && tasksById.has(e.taskId)).map((e) => [e.datasetId, tasksById.get(e.taskId)!]));
  const closureDatasets = [...up.entries.values()].filter((e) => e.nodeKind === "dataset").map((e) => e.node);
  // During a first start: the closure's units of the datasets not computed yet, not every unit
  // of them (a month of a 30-dataset chain, not ten years of it: ~2 s of the event loop).
  const closureUnits = (nodeId: string) => up.entries.get(nodeId as DatasetId)?.units;
  const problemsOf = problemsLookup(await getUnitStateSnapshotCovering(db, now, closureDatasets, closureUnits));
  const scope = await loadClosureFacts(db, graph, up, { datasetsByNode: new Map(datasets.map((d) => [d.nodeId, d])), writerOf, edges, problemsOf });
  const [incidents, certificates] = await Promise.all([
    listOpenIncidents(db),
    listCertificatesOf(
      db,
      scope.map((d) => d.record.nodeId),
    ),
  ]);
  const own = scope.find((d) => d.record.nodeId === target.nodeId)!;
  if (!target.partitionsDeclared && own.keys.length === 0) {
    throw new RefusedError(
      `query.dataset: ${target.nodeId} has no declared partition definition, so its expected units are unknown — set one with PUT /api/v1/datasets/{id}/partitions (nothing it holds says which units to expect)`,
    );
  }
  const cert = completenessCertificate(
    {
      target: asUnits(own),
      period: { from: period.from, to: period.to },
      upstream: scope.filter((d) => d !== own).map(asUnits),
    },
    now.getTime(),
  );
  const reasons = cert.verdict === "incomplete" ? cert.reasons.map((g) => linkReason(g, scope, incidents)) : [];
  const answer: Completeness = {
    dataset: {
      nodeId: target.nodeId,
      name: target.name,
      pipeline: target.pipeline,
      grain: target.partitionDef.kind === "time" ? target.partitionDef.grain : null,
    },
    period: { from: period.from, to: period.to },
    checkedAt: now.toISOString(),
    verdict: cert.verdict,
    expectedUnits: own.keys.length,
    reasons,
    byUnit: explainUnits(reasons, target.name),
    evidence: cert.evidence.map((e) => {
      const d = scope.find((s) => s.record.nodeId === e.dataset)!;
      const space = graph.nodes[graph.index.get(d.record.nodeId as DatasetId)!]!.space;
      return {
        datasetNodeId: e.dataset,
        datasetName: d.record.name,
        role: e.role,
        unitRanges: toKeyRanges(d.units, space),
        units: e.units,
        healthyUnits: e.healthyUnits,
        rows: e.rows,
        reconciledUnits: e.reconciledUnits,
        inputVersions: e.inputVersions,
        oldestPublishAt: iso(e.oldestPublishAt),
        newestPublishAt: iso(e.newestPublishAt),
        notes: e.notes,
      };
    }),
    freshness: freshnessOf(own, now),
    frontiers: mergeFrontiers(certificates),
  };
  return { answer, targetKeys: own.keys };
}

function asUnits(d: ClosureDataset) {
  return { dataset: d.record.nodeId, unitKeys: d.keys, facts: d.facts };
}

function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

function linkReason(g: CompletenessGap, scope: ClosureDataset[], incidents: IncidentRef[]): CompletenessReason {
  const d = scope.find((s) => s.record.nodeId === g.dataset)!;
  const nodes = [d.record.nodeId, ...(d.writer ? [d.writer.nodeId] : [])];
  return {
    datasetNodeId: g.dataset,
    datasetName: d.record.name,
    role: g.role,
    unitKey: g.unitKey,
    state: g.state,
    reason: g.reason,
    gap: g.state === "known_bad" || g.state === "skipped",
    unitHref: `/units/${encodeURIComponent(d.record.nodeId)}?unit=${encodeURIComponent(g.unitKey)}`,
    incidents: incidents
      .filter((i) => namesUnit(i.failedPairs, nodes, g.unitKey))
      .map((i) => ({ id: i.id, title: i.title, status: i.status, href: `/incidents/${i.id}` })),
    rows: g.rows,
    sourceCount: g.sourceCount,
    writerNodeId: d.writer?.nodeId ?? null,
    builtFrom: g.builtFrom ? { datasetName: nodeName(g.builtFrom.dataset), unitKey: g.builtFrom.unitKey, problem: g.builtFrom.problem } : null,
  };
}

function freshnessOf(own: ClosureDataset, now: Date): Completeness["freshness"] {
  const units = own.keys.map((unitKey) => {
    const ledger = own.facts.get(unitKey)?.ledger ?? [];
    return { unitKey, publishedAt: ledger.length ? Math.max(...ledger.map((l) => l.publishedAt)) : null };
  });
  const f = freshnessDistribution(units, now.getTime());
  const outlier = new Map(f.outliers.map((o) => [o.unitKey, o.direction]));
  return { ...f, units: f.units.map((u) => ({ ...u, outlier: outlier.get(u.unitKey) ?? null })) };
}

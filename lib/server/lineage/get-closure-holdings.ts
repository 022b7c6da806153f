import type { NodeId } from "@/lib/domain/ids";
import { keysOf } from "@/lib/domain/partitions";
import type { ClosureEntry } from "@/lib/domain/closure";
import type { DatasetNode, LineageGraph } from "@/lib/domain/lineage-graph";
import type { ClosureQuery, Holding, Holdings } from "@/lib/contracts/lineage";
import { getDb, type Db } from "../repositories/database";
import { deliveriesOf } from "../repositories/ledger/external-deliveries";
import { attemptsByUnit, publishesByUnit } from "../repositories/ledger/unit-ledger";
import { classifyHoldings, type UnitFactsLookup } from "./classify-holdings";
import type { LoadedLineage } from "./load-lineage-graph";
import { resolveClosure } from "./resolve-closure";
import { describeUnitSet } from "./describe-unit-set";
import { getUnitStateSnapshot, type DatasetStateCodes } from "../units/state-service";
import { UnitSetBuilder, toKeyRanges } from "@/lib/domain/unit-set";
import { UNIT_STATE_PRECEDENCE } from "@/lib/domain/unit-state";
import { HttpError } from "../http/errors";

/**
 * What every node of a closure holds right now, per unit (PRODUCT.md): never ran (consumers
 * still see the previous value: stale while looking current), ran before the failure on inputs
 * a repair replaces, ran after it on what the failure left, or was sent outside the platform
 * (re-running recalls nothing). A task holds what the dataset it writes holds.
 */
export async function getClosureHoldings(query: ClosureQuery, now: Date, db: Db = getDb(), signal?: AbortSignal): Promise<Holdings> {
  const asOf = query.asOf ? new Date(query.asOf) : now;
  const { lineage, result } = await resolveClosure(db, { nodeId: query.nodeId, units: query.units, direction: query.direction, asOf });
  stopIfGone(signal);
  const { graph } = lineage;
  const outputs = new Map([...result.entries.keys()].map((id) => [id, outputOf(graph, id)]));
  const datasetIds = [...new Set([...outputs.values()].flatMap((d) => (d ? [lineage.datasets.get(d.id)!.id] : [])))];
  const writerIds = [...new Set([...outputs.values()].flatMap((d) => (d ? writerIdsOf(graph, d, lineage.tasks) : [])))];
  const seedTask = [...result.entries.values()].find((e) => e.seed);
  const seedWriters = seedTask ? (outputs.get(seedTask.node) ? writerIdsOf(graph, outputs.get(seedTask.node)!, lineage.tasks) : []) : [];
  const [publishes, deliveries, attempts] = await Promise.all([
    inChunks(datasetIds, (ids) => publishesByUnit(db, ids)).then((maps) => new Map(maps.flatMap((m) => [...m]))),
    inChunks(writerIds, (ids) => deliveriesOf(db, ids)).then((lists) => lists.flat()),
    inChunks(writerIds, (ids) => attemptsByUnit(db, ids)).then((maps) => new Map(maps.flatMap((m) => [...m]))),
  ]);
  const seedKeys = new Set(seedTask && outputs.get(seedTask.node) ? keysOf(outputs.get(seedTask.node)!.space, seedTask.units) : []);
  const failedAt = latestFailure(new Map(seedWriters.flatMap((id) => (attempts.has(id) ? [[id, attempts.get(id)!] as const] : []))), seedKeys);
  const facts: UnitFactsLookup = { publishes, attempts, deliveries, failedAt };
  stopIfGone(signal);
  // The states as they stand, never computed here: during a first start's computation a wide
  // closure's ~22,000 datasets took minutes of the server's one thread, and every click queued
  // behind them (docs/lineage.md). What it has not reached is said to be unknown; the page asks again.
  const states = await getUnitStateSnapshot(db, now);
  const byNode = new Map(states.datasets.map((d) => [d.dataset.nodeId, d]));
  const nodes = [...result.entries.values()].map((entry) => {
    const output = outputs.get(entry.node);
    const kept = output ? byNode.get(output.id) : undefined;
    const holdings = [...holdingsOf(entry, output, lineage, facts), ...(output && kept ? suspectHolding(entry, output, kept) : [])];
    return output && !kept && states.computing ? { nodeId: entry.node, holdings, suspectUnknown: true as const } : { nodeId: entry.node, holdings };
  });
  return {
    asOf: asOf.toISOString(),
    failedAt: failedAt === null ? null : new Date(failedAt).toISOString(),
    statesComputing: states.computing ? { done: states.computing.done, total: states.computing.total } : null,
    nodes,
  };
}

/**
 * The page asks for the holdings once a closure is painted, and drops the question when the
 * selection changes (lib/client/use-lineage.ts). A 45,000-node closure's ledger reads and
 * classification take a second or so: a question nobody waits for any more stops at the next
 * step instead of holding up the next click's closure (docs/lineage.md).
 */
function stopIfGone(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new HttpError(499, "client_closed_request", "the page no longer waits for these holdings");
}

function holdingsOf(entry: ClosureEntry, output: DatasetNode | undefined, lineage: LoadedLineage, facts: UnitFactsLookup) {
  if (!output) return [];
  const record = lineage.datasets.get(output.id)!;
  const writers = new Set(writerIdsOf(lineage.graph, output, lineage.tasks));
  // A task and its output share a partition definition, so the entry's ordinals name the output's units.
  return classifyHoldings(entry.units, output, record, writers, facts);
}

const SUSPECT = UNIT_STATE_PRECEDENCE.indexOf("suspect");

/** The closure units the unit-state service calls suspect, with the first one's reason. */
function suspectHolding(entry: ClosureEntry, output: DatasetNode, kept: DatasetStateCodes): Holding[] {
  const builder = new UnitSetBuilder();
  let first: number | null = null;
  for (const o of entry.units) {
    if (o >= kept.codes.length || kept.codes[o] !== SUSPECT) continue;
    builder.add(o, o);
    first ??= o;
  }
  const set = builder.build();
  if (first === null || set.isEmpty) return [];
  const reason = kept.problems.get(first)?.reasons.find((r) => r.startsWith("built from upstream")) ?? "built from a bad upstream unit";
  return [
    {
      kind: "suspect",
      units: toKeyRanges(set, output.space),
      unitsText: describeUnitSet(set, output.space),
      detail: `published, but built on bad input: ${output.space.keyAt(first)} ${reason}${set.size > 1 ? ` (and ${set.size - 1} more)` : ""}`,
    },
  ];
}

/** The dataset a node holds: itself, or for a task the (first) dataset it writes. */
function outputOf(graph: LineageGraph, id: NodeId): DatasetNode | undefined {
  const node = graph.nodes[graph.index.get(id)!]!;
  if (node.nodeKind === "dataset") return node;
  const write = graph.out[node.index]!.find((e) => e.kind === "writes");
  return write ? (graph.nodes[write.to] as DatasetNode) : undefined;
}

function writerIdsOf(graph: LineageGraph, dataset: DatasetNode, tasks: ReadonlyMap<string, { id: string }>): string[] {
  return graph.in[dataset.index]!.filter((e) => e.kind === "writes").flatMap((e) => {
    const t = tasks.get(graph.nodes[e.from]!.id);
    return t ? [t.id] : [];
  });
}

/** When the seed units last failed: publishes after it ran on what the failure left. */
function latestFailure(attempts: Awaited<ReturnType<typeof attemptsByUnit>>, seedKeys: ReadonlySet<string>): number | null {
  let latest: number | null = null;
  for (const byUnit of attempts.values()) {
    for (const [key, list] of byUnit) {
      if (!seedKeys.has(key)) continue;
      for (const a of list) if (a.status === "failed" && a.endedAt !== null && (latest === null || a.endedAt > latest)) latest = a.endedAt;
    }
  }
  return latest;
}

/** A closure can hold thousands of nodes: one query per 500 ids stays under every database's parameter limit. */
async function inChunks<T>(ids: string[], load: (chunk: string[]) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < ids.length; i += 500) out.push(await load(ids.slice(i, i + 500)));
  return out;
}

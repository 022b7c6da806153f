import { availableParallelism } from "node:os";
import { watermarkAt } from "@/lib/domain/change-watermark";
import { resolvePartitions } from "@/lib/domain/partitions";
import { log } from "../../observability/log";
import { listDatasets, listEdgesAt, type DatasetRecord } from "../../repositories/lineage/catalog-reads";
import { getDb, type Db } from "../../repositories/database";
import { lastUnitChange } from "../../repositories/units/unit-changes";
import { unitStateFingerprint } from "../../repositories/units/unit-matrix-reads";
import { upstreamFirst, visitUnitStates } from "../load-unit-states";
import { toCodes } from "../state-codes";
import { threadAvailable, visitUnitStatesInThread, type ThreadDataset } from "../unit-states-thread";
import { computationParts } from "./computation-parts";
import { persist } from "./kept-states";
import { hourOf, type FullComputation, type ServiceState } from "./service-state";
import { SMALL_WORLD_UNITS, type DatasetStateCodes, type UnitStateSnapshot } from "./unit-state-snapshot";

/**
 * Every unit's state computed from the records, in the background: on a first start, after a
 * catalog or lineage change, or when too much changed at once to apply. `s.full` holds its
 * progress (the datasets done so far answer meanwhile); once done its states replace the
 * service's, unless a newer computation superseded it, and are kept in the database.
 */
export function startFullComputation(db: Db, now: Date, s: ServiceState, catalog: string): void {
  const partial: DatasetStateCodes[] = [];
  let sized = () => {};
  const full: FullComputation = { catalog, partial, total: 0, units: 0, done: Promise.resolve(), sized: new Promise<void>((r) => (sized = r)) };
  s.full = full;
  full.done = (async () => {
    // Fingerprint and sequence before the records are read: what lands meanwhile is applied after.
    let ledger: string, datasets: DatasetRecord[], seq: number;
    try {
      // In process, not on the ingestion thread: a thread starting beside the computation's own
      // held every first read waiting for the size, and these counts are quick (docs/units.md).
      ({ ledger } = await unitStateFingerprint(db));
      [datasets, seq] = await Promise.all([listDatasets(db), lastUnitChange(db)]);
      full.total = datasets.length;
      full.units = datasets.reduce((n, d) => n + safeSize(d, now), 0);
    } finally {
      // Only once the size is known (or the reads failed): a waiter decides on it whether to wait.
      sized();
    }
    await computeAll(db, now, partial, full.units);
    const snapshot: UnitStateSnapshot = { computedAt: now, datasets: [...partial], computing: null, refreshing: false };
    const entry = { catalog, ledger, watermark: watermarkAt(seq), hour: hourOf(now), snapshot };
    // A computation a newer catalog superseded does not replace the states of a newer one.
    if (s.full !== full && s.entry) return;
    s.entry = entry;
    await persist(db, s.entry);
  })().finally(() => {
    if (s.full === full) s.full = null;
  });
  full.done.catch((e: unknown) => log.error(`computing the unit states failed: ${(e as Error).message}`));
}

/**
 * Every dataset's states into `partial`, upstream first: a big world's on threads of their own in
 * the console's server (the pages keep the main thread); a small one's — starting a thread costs
 * more than its computation (docs/units.md) — or if the thread fails, in process.
 */
async function computeAll(db: Db, now: Date, partial: DatasetStateCodes[], units: number): Promise<void> {
  if (units > SMALL_WORLD_UNITS && threadAvailable() && db === getDb()) {
    const started = performance.now();
    const stop = new AbortController();
    try {
      // Parts of the lineage no task links need nothing of each other: one thread each, as many
      // as there are cores (up to 4). A space is not sent (it is a class): resolved here as the thread resolved it.
      const [datasets, edges] = await Promise.all([listDatasets(db), listEdgesAt(db, now)]);
      const parts = computationParts(datasets, edges, Math.min(4, availableParallelism()), (d) => safeSize(d, now));
      const receive = (d: ThreadDataset) => {
        if (!stop.signal.aborted) partial.push({ ...d, space: resolvePartitions(d.dataset.partitionDef, { asOf: now.getTime() }) });
      };
      const threads = parts.length > 1 ? parts.map((part) => part.map((d) => d.nodeId)) : [undefined];
      await Promise.all(threads.map((ids) => visitUnitStatesInThread(now, receive, ids, stop.signal)));
      // In the order one pass gives (upstream first), whichever thread finished first.
      if (parts.length > 1) {
        const writerOf = new Map(edges.filter((e) => e.direction === "write").map((e) => [e.datasetId, e.taskId]));
        const rank = new Map(upstreamFirst(datasets, edges, writerOf).map((d, i) => [d.id, i]));
        const at = (d: DatasetStateCodes) => rank.get(d.dataset.id) ?? rank.size;
        partial.sort((a, b) => at(a) - at(b));
      }
      log.info(
        `unit states of ${partial.length} datasets computed on ${threads.length} thread(s) of their own in ${Math.round(performance.now() - started)} ms`,
      );
      return;
    } catch (e) {
      stop.abort();
      log.warn(`computing the unit states on threads of their own failed (${(e as Error).message}): computing them in process`);
      partial.length = 0;
    }
  }
  await visitUnitStates(db, now, {}, (d) => partial.push(toCodes(d)));
}

/** A dataset's units as of `now`, counted as one when its definition does not resolve. */
function safeSize(d: DatasetRecord, now: Date): number {
  try {
    return resolvePartitions(d.partitionDef, { asOf: now.getTime() }).size;
  } catch {
    return 1;
  }
}

import { createHash } from "node:crypto";
import { watermarkAt } from "@/lib/domain/change-watermark";
import { decodeKeptDataset, decodeKeptHeader, encodeKeptDataset, encodeKeptHeader } from "@/lib/domain/kept-unit-states";
import { resolvePartitions } from "@/lib/domain/partitions";
import { UNIT_STATE_PRECEDENCE } from "@/lib/domain/unit-state";
import { runningJobQueue } from "../../jobs/job-queue";
import { log } from "../../observability/log";
import { listDatasets, listEdgesAt, listTasks } from "../../repositories/lineage/catalog-reads";
import type { Db } from "../../repositories/database";
import { pruneUnitChanges } from "../../repositories/units/unit-changes";
import { readKeptDatasets, readUnitStateSnapshot, writeUnitStateSnapshot } from "../../repositories/units/unit-state-snapshots";
import { turn } from "../load-unit-states";
import { HOUR, stateOf, type Entry, type ServiceState } from "./service-state";
import type { DatasetStateCodes } from "./unit-state-snapshot";

/**
 * The states kept in the database (UnitStateSnapshot's header, a UnitStateKept row per dataset,
 * in the text of lib/domain/kept-unit-states.ts), so a console that restarts, or another console
 * on the same database, takes them up and applies the changes since instead of computing them.
 */

/** The kept states' vocabulary: a hash of the precedence the codes index. */
export const STATE_VOCABULARY = createHash("sha1").update(UNIT_STATE_PRECEDENCE.join(",")).digest("hex").slice(0, 12);

const PERSIST_EVERY_MS = 30_000;
/** Kept datasets taken up per read (a turn of the event loop between reads). */
const KEPT_PAGE = 100;

export function schedulePersist(db: Db, s: ServiceState): void {
  // A console server keeps the states through its `unit-states` job (one instance at a time);
  // a script or test without background work keeps them itself.
  if (s.persistTimer || runningJobQueue()) return;
  s.persistTimer = setTimeout(() => {
    s.persistTimer = null;
    if (s.entry) void persist(db, s.entry);
  }, PERSIST_EVERY_MS);
  s.persistTimer.unref?.();
}

export async function persist(db: Db, entry: Entry): Promise<void> {
  try {
    const s = stateOf(db);
    const { snapshot } = entry;
    // States are replaced, never changed in place: a dataset whose states are still the ones this
    // process last kept or took up is in the database as it is here — unless another console kept
    // its own states since (the header is no longer ours). Its rows may then be older than ours
    // (it kept states it had not brought up to date), and skipping them under our newer header
    // would leave them behind for good: a console taking them up applies only the changes after it.
    const current = await readUnitStateSnapshot(db);
    const ours = current !== null && current.body === s.keptHeader;
    const kept = new Map((ours ? (s.kept?.datasets ?? []) : []).map((d) => [d.dataset.id, d]));
    const changed: { datasetId: string; body: string }[] = [];
    for (const d of snapshot.datasets) {
      if (kept.get(d.dataset.id) === d) continue;
      changed.push({ datasetId: d.dataset.id, body: encodeKeptDataset(d) });
      await turn(); // as the computation does after each dataset: requests answer meanwhile
    }
    const datasetIds = snapshot.datasets.map((d) => d.dataset.id);
    const header = encodeKeptHeader(
      {
        catalog: entry.catalog,
        ledger: entry.ledger,
        seq: entry.watermark.seq,
        above: [...entry.watermark.above],
        hour: entry.hour,
        resolvedAt: snapshot.computedAt.getTime(),
        datasetIds,
      },
      STATE_VOCABULARY,
    );
    // Written only over the header read above: a console that kept meanwhile wins, and this one
    // keeps everything again next time.
    if (!(await writeUnitStateSnapshot(db, header, snapshot.computedAt, changed, datasetIds, current?.body ?? null))) return;
    s.kept = snapshot;
    s.keptHeader = header;
    // Changes the kept states include are needed by no reader but a console behind: every console
    // brings its states up at least hourly (warm-unit-states.ts), so two hours of them are kept.
    await pruneUnitChanges(db, entry.watermark.seq, new Date(Date.now() - 2 * HOUR));
  } catch (e) {
    // The states in memory are right; only a restart will have to compute them again.
    log.error(`keeping the unit states in the database failed: ${(e as Error).message}`);
  }
}

/**
 * The kept states as this process's, as if it had computed them: the catalog fingerprint then
 * decides whether they answer (with the changes since applied) or are computed again. States
 * kept under another format or vocabulary, or that no longer fit the catalog (a dataset gone, a
 * definition changed), are not used. Datasets are taken up a page at a time with turns of the
 * event loop between, so requests are answered meanwhile. A dataset kept after the header was
 * read (another console keeping its states) is newer than the header's watermark: the changes
 * since the watermark, applied again, recompute the same units from the records.
 */
export async function restore(db: Db, now: Date, s: ServiceState): Promise<void> {
  const row = await readUnitStateSnapshot(db);
  if (!row || s.entry) return;
  const kept = decodeKeptHeader(row.body, STATE_VOCABULARY);
  if (!kept) return;
  const [datasets, tasks, edges] = await Promise.all([listDatasets(db), listTasks(db), listEdgesAt(db, now)]);
  if (kept.datasetIds.length !== datasets.length) return;
  const datasetsById = new Map(datasets.map((d) => [d.id, d]));
  const tasksById = new Map(tasks.map((t) => [t.id, t]));
  const writerOf = new Map(edges.filter((e) => e.direction === "write").map((e) => [e.datasetId, e.taskId]));
  const listed = new Set(kept.datasetIds);
  const byId = new Map<string, DatasetStateCodes>();
  for (let after: string | null = null; ;) {
    const page = await readKeptDatasets(db, after, KEPT_PAGE);
    for (const r of page) {
      if (!listed.has(r.datasetId)) continue;
      const dataset = datasetsById.get(r.datasetId);
      if (!dataset) return;
      const d = decodeKeptDataset(r.body);
      const space = resolvePartitions(dataset.partitionDef, { asOf: kept.resolvedAt });
      if (d.codes.length !== space.size) return;
      byId.set(r.datasetId, {
        dataset,
        writer: tasksById.get(writerOf.get(r.datasetId) ?? "") ?? null,
        space,
        codes: d.codes,
        problems: d.problems,
        invalidLedgerKeys: d.invalidLedgerKeys,
        prevailing: d.prevailing,
      });
    }
    if (page.length < KEPT_PAGE) break;
    after = page.at(-1)!.datasetId;
    await turn();
  }
  const restored = kept.datasetIds.map((id) => byId.get(id));
  if (s.entry || restored.some((d) => d === undefined)) return;
  s.entry = {
    catalog: kept.catalog,
    ledger: kept.ledger,
    watermark: watermarkAt(kept.seq, kept.above),
    hour: kept.hour,
    snapshot: { computedAt: row.computedAt, datasets: restored as DatasetStateCodes[], computing: null, refreshing: false },
  };
  s.kept = s.entry.snapshot;
  s.keptHeader = row.body;
}

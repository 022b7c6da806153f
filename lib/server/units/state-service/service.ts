import { HttpError } from "../../http/errors";
import { unitStateFingerprintOffMainThread } from "../../ingestion/ingestion-thread";
import { log } from "../../observability/log";
import { lineageFingerprint } from "../../repositories/lineage/lineage-fingerprint";
import type { Db } from "../../repositories/database";
import { lastUnitChange } from "../../repositories/units/unit-changes";
import { loadUnitStates, type LoadOptions } from "../load-unit-states";
import { toCodes } from "../state-codes";
import { applyChanges } from "./apply-changes";
import { startFullComputation } from "./full-computation";
import { persist, restore } from "./kept-states";
import { problemsLookup } from "./lookups";
import { hourOf, sleep, stateOf, type Entry, type ServiceState } from "./service-state";
import { isBigWorld, SMALL_WORLD_UNITS, type UnitStateSnapshot } from "./unit-state-snapshot";

/**
 * How long a request waits for a full computation of a big world before it answers with what
 * there is. None by default: such a computation takes seconds (docs/units.md), so waiting only
 * delays the answer it will give anyway (the datasets computed so far).
 */
const WAIT_MS = Number(process.env.REPARO_STATE_WAIT_MS ?? 0);
const FINGERPRINT_EVERY_MS = 5_000;
/** How long a read of a big world waits for an incremental update before answering without it. */
const UPDATE_WAIT_MS = Number(process.env.REPARO_STATE_UPDATE_WAIT_MS ?? 50);
/**
 * How long a read of a small world waits for updates. Such an update takes milliseconds, so a
 * read sees every write before it; but under a stream of writes (three consoles ingesting) each
 * update waits for the event loop behind the writes, and reads that waited for every update in
 * turn answered seconds late (docs/units.md). Past this, the read answers one update behind.
 */
const SMALL_UPDATE_WAIT_MS = Number(process.env.REPARO_STATE_SMALL_UPDATE_WAIT_MS ?? 1_000);

export async function getUnitStateSnapshot(db: Db, now: Date): Promise<UnitStateSnapshot> {
  return snapshotBy(db, now, Date.now());
}

async function snapshotBy(db: Db, now: Date, arrivedAt: number): Promise<UnitStateSnapshot> {
  const s = stateOf(db);
  s.restored ??= restore(db, now, s).catch((e: unknown) => log.error(`the kept unit states could not be taken up: ${(e as Error).message}`));
  await s.restored;
  const catalog = await lineageFingerprint(db);
  if (!s.entry || s.entry.catalog !== catalog) return answerDuringFullComputation(db, now, s, catalog);
  // One update at a time. A request arriving meanwhile waits for it (up to its deadline: 1 s in
  // a small world, 50 ms in a big one), then applies what is left; past its deadline it answers
  // with the states as they stand (one update behind) so reads are not starved by writes.
  while (s.running) if (!(await settlesBy(s.running, s.entry, arrivedAt))) return s.entry.snapshot;
  const entry = s.entry;
  if (!entry || entry.catalog !== catalog) return snapshotBy(db, now, arrivedAt);
  const big = isBigWorld(entry.snapshot);
  const hour = hourOf(now);
  // Batched updates in a big world: while writes stream in, an update starts at most once its
  // predecessor's own duration has passed again, so reads keep half the event loop.
  if (big && Date.now() < s.nextUpdateAt && hour === entry.hour) return entry.snapshot;
  // The records' fingerprint is the net for writes that bypass the change log. It is compared
  // only while the log is quiet: a logged write moves it too, so while writes are logged it could
  // only be taken again as the new baseline — a scan of the ledger on every update for nothing.
  // Once the log is quiet it is cast and, after updates, becomes the baseline; an unlogged write
  // shows as a difference from then on. In a big world it is cast every 5 s at most, beside the
  // reads: a read answers the states as they stand, and a difference found makes the next read
  // compute them again (the counts take seconds in a big world, and on SQLite they run on a thread
  // of their own: on the main thread every page waited behind them after any write).
  const quiet = async () => (await lastUnitChange(db)) <= entry.watermark.seq && hour === entry.hour;
  if (await quiet()) {
    if (big) {
      if (!s.comparing && Date.now() - s.fingerprintAt >= FINGERPRINT_EVERY_MS) {
        s.comparing = compareRecords(db, s, entry, quiet)
          .catch((e: unknown) => log.error(`comparing the records with the unit states failed: ${(e as Error).message}`))
          .finally(() => {
            s.comparing = null;
            s.fingerprintAt = Date.now();
          });
      }
      return entry.snapshot;
    }
    const seen = await compareRecords(db, s, entry, quiet);
    if (seen === "same") return entry.snapshot;
    if (seen === "changed") return snapshotBy(db, now, arrivedAt);
  }
  // Another read started an update (or replaced the states) while this one looked: join it.
  if (s.running || s.entry !== entry) return snapshotBy(db, now, arrivedAt);
  const started = Date.now();
  const update = applyChanges(db, now, s, { ...entry, ledger: null }, hour).finally(() => {
    if (s.running === update) s.running = null;
    if (big) s.nextUpdateAt = Date.now() + (Date.now() - started);
  });
  s.running = update;
  update.catch((e: unknown) => log.error(`updating the unit states failed: ${(e as Error).message}`));
  if (!(await settlesBy(update, entry, arrivedAt))) return entry.snapshot;
  await update;
  return s.entry!.snapshot;
}

/**
 * Whether the update settles before the read's deadline. One deadline per read (from when it
 * arrived: longer in a small world), whatever it joins: under a stream of writes another update
 * starts as soon as one ends, and a read that waited for each in turn waited for all of them
 * (docs/units.md).
 */
async function settlesBy(update: Promise<unknown>, entry: Entry, arrivedAt: number): Promise<boolean> {
  const settled = update.then(
    () => true,
    () => true,
  );
  const deadline = arrivedAt + (isBigWorld(entry.snapshot) ? UPDATE_WAIT_MS : SMALL_UPDATE_WAIT_MS);
  const left = deadline - Date.now();
  if (left <= 0) return false;
  return Promise.race([settled, sleep(left).then(() => false)]);
}

/**
 * The records against the states' baseline (unitStateFingerprint): "same" (the baseline taken if
 * there was none yet), "changed" (a write that bypassed the change log, a direct write to the
 * database: the states are marked to be computed again), or "moved" (a change was logged meanwhile,
 * or the states were replaced: nothing to conclude; the read applies what is new).
 */
async function compareRecords(db: Db, s: ServiceState, entry: Entry, quiet: () => Promise<boolean>): Promise<"same" | "changed" | "moved"> {
  const ledger = (await unitStateFingerprintOffMainThread(db)).ledger;
  // Cast before this second look: a change logged in between is not in it.
  if (!(await quiet()) || s.entry !== entry) return "moved";
  if (entry.ledger === null || ledger === entry.ledger) {
    if (entry.ledger === null) s.entry = { ...entry, ledger };
    return "same";
  }
  s.entry = { ...entry, catalog: "" };
  return "changed";
}

/**
 * No states for this catalog yet: start (or join) the full computation and wait for it a little;
 * a small world always waits. Then answer with the previous catalog's states (refreshing) or,
 * on a first start, the datasets computed so far (computing).
 */
async function answerDuringFullComputation(db: Db, now: Date, s: ServiceState, catalog: string): Promise<UnitStateSnapshot> {
  if (!s.full || s.full.catalog !== catalog) startFullComputation(db, now, s, catalog);
  const full = s.full!;
  await full.sized.catch(() => undefined);
  const small = full.units <= SMALL_WORLD_UNITS;
  const finished = await Promise.race([full.done.then(() => true), ...(small ? [] : [sleep(WAIT_MS).then(() => false)])]);
  if (finished && s.entry?.catalog === catalog) return s.entry.snapshot;
  // The catalog moved on while this computation ran (a producer declared a new dataset), or the
  // computation failed: the states there are, marked refreshing, or the newer computation's
  // progress — never an error page while datasets arrive.
  if (s.entry) return { ...s.entry.snapshot, refreshing: true };
  const current = finished ? (s.full ?? null) : full;
  if (!current) throw new HttpError(503, "unit_states_unavailable", "the unit states could not be computed; they are computed again on the next read");
  return { computedAt: now, datasets: [...current.partial], computing: { done: current.partial.length, total: current.total }, refreshing: false };
}

/**
 * The `unit-states` job: brings this instance's states up to date and, when they moved since it
 * last did, keeps them in the database (with the change rows they include pruned), so a console
 * that starts, or another instance, takes them up instead of reading the whole ledger.
 */
export async function keepUnitStates(db: Db, now: Date): Promise<void> {
  await whenUnitStatesReady(db, now);
  const s = stateOf(db);
  if (!s.entry || s.entry.snapshot === s.kept) return;
  await persist(db, s.entry);
}

/** Resolves once the states of the current catalog are complete and current (the server's start-up warm-up waits on it). */
export async function whenUnitStatesReady(db: Db, now: Date): Promise<UnitStateSnapshot> {
  for (;;) {
    const snapshot = await getUnitStateSnapshot(db, now);
    if (!snapshot.computing && !snapshot.refreshing) return snapshot;
    await stateOf(db).full?.done.catch(() => undefined);
  }
}

/**
 * The kept states, holding at least these datasets: during a first start's computation, the
 * ones it has not reached are computed here (with any upstream dataset they need), so what
 * certifies or plans (completeness, an incident's scope) answers now and never reads a dataset
 * it has not reached as healthy. With `units` (a question's upstream closure), only those units
 * of them are computed, and only those units of them may be read from the answer.
 */
export async function getUnitStateSnapshotCovering(
  db: Db,
  now: Date,
  datasetNodeIds: readonly string[],
  units?: LoadOptions["units"],
): Promise<UnitStateSnapshot> {
  const snapshot = await getUnitStateSnapshot(db, now);
  if (!snapshot.computing) return snapshot;
  const have = new Set(snapshot.datasets.map((d) => d.dataset.nodeId));
  const missing = [...new Set(datasetNodeIds)].filter((id) => !have.has(id));
  if (missing.length === 0) return snapshot;
  const computed = await loadUnitStates(db, now, { datasetNodeIds: missing, knownProblems: problemsLookup(snapshot), units });
  return { ...snapshot, datasets: [...snapshot.datasets, ...computed.map(toCodes)] };
}

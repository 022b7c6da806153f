import type { AuditDraft } from "@/lib/contracts/audit";
import { readsAFailure } from "@/lib/domain/blocked-pairs";
import { nextRunStatus, runEndOf, type RepairRunEnd } from "@/lib/domain/repair-run-lifecycle";
import { appendAudit } from "../audit/append-audit";
import type { LocalOptions } from "../orchestrators/local";
import { OrchestratorError, type OrchestratorCall, type PairProgress } from "../orchestrators/port";
import { inTransaction, type Db } from "../repositories/database";
import { ownsRun, saveDispatchState, type RepairRunParams, type RepairRunRecord } from "../repositories/repair/repair-runs";
import { progressKey, runDispatchGroups, type DispatchGroup } from "./dispatch-groups";
import { loadRepairContext, type RepairContext } from "./load-repair-context";
import { moveRepairRun } from "./move-repair-run";
import { describeCall, dispatchedEntry, dispatchFailedEntry, heldBackEntry, progressEntry, type CallOnRecord, type RunOnRecord } from "./repair-run-audit";

/** How often a run waiting on an orchestrator polls it. */
export const POLL_SECONDS = 3;
/** Quiet polls' calls gathered before they are written without a change (about a minute of polling). */
const QUIET_CALLS = 40;
const SETTLED = new Set(["succeeded", "failed"]);

export type Drive = { state: "finished"; status: RepairRunEnd } | { state: "continue"; afterSeconds?: number } | { state: "lost" };
type Progress = RepairRunParams["progress"];
type Dispatch = NonNullable<RepairRunParams["dispatch"]>;

/** One slice's hold on the run: what it has sent and seen so far, saved only while the slice owns the run. */
interface Driving {
  readonly db: Db;
  readonly run: RepairRunRecord;
  readonly onRecord: RunOnRecord;
  readonly slice: string;
  readonly ctx: RepairContext;
  readonly groups: readonly DispatchGroup[];
  readonly waves: number;
  /** The pipeline of each (task, unit) of the run, by progressKey. */
  readonly groupOf: ReadonlyMap<string, string>;
  dispatch: Dispatch;
  progress: Progress;
}

const inWave = (g: DispatchGroup, w: number) => g.plan.pairs.some((p) => p.wave === w);

/** Saves the run's dispatch state and progress with its audit entry, in one transaction; false once the slice lost the run. */
function save(d: Driving, audit: AuditDraft | null): Promise<boolean> {
  return inTransaction(
    d.db,
    async (tx) => {
      if (!(await saveDispatchState(tx, d.run.id, d.slice, { dispatch: d.dispatch, progress: d.progress }))) return false;
      if (audit) await appendAudit(tx, audit);
      return true;
    },
    { timeout: 30_000, maxWait: 30_000 },
  );
}

/**
 * The run's work for one slice, the same for every orchestrator. The wave in flight is entered
 * first, then each pipeline with pairs in it is dispatched (a retry or a takeover sends only the
 * pipelines not yet recorded as sent); each is polled until every pair of the wave succeeded or
 * failed; then the next wave. A pair that reads a failed pair of this repair (lib/domain
 * readsAFailure: the downstream closure, through the partition mappings) is held back —
 * recorded failed, "not dispatched" — unless its own orchestrator blocks it (the local executor,
 * for failures it ran itself); what does not read the failure goes on. Every dispatch, hold-back
 * and poll that changed a pair's progress is saved with its audit entry in one transaction.
 */
export async function driveRepairSlice(db: Db, run: RepairRunRecord, slice: string, deadline: number, options: LocalOptions): Promise<Drive> {
  const now = new Date();
  if (nextRunStatus(run.status, "start") !== null) await inTransaction(db, (tx) => moveRepairRun(tx, run, "start", { startedAt: now }));
  const ctx = await loadRepairContext(db, now);
  const groups = await runDispatchGroups(db, ctx, run, { db, concurrency: run.params.concurrency, stillOwner: () => ownsRun(db, run.id, slice), options });
  const d: Driving = {
    db,
    run,
    onRecord: { id: run.id, repairNumber: run.repairNumber, incidentId: run.incidentId, launchedBy: run.params.launchedBy },
    slice,
    ctx,
    groups,
    waves: Math.max(0, ...run.params.pairs.map(([, , w]) => w + 1)),
    groupOf: new Map(groups.flatMap((g) => g.plan.pairs.map((p) => [progressKey(p.taskNodeId, p.unitKey), g.pipelineId] as const))),
    dispatch: run.params.dispatch ?? { wave: -1, handles: {}, quietCalls: [] },
    progress: { ...run.params.progress },
  };
  for (;;) {
    // Taken over, or asked to cancel: stop here (a cancel is then carried out by runRepairSlice).
    if (!(await ownsRun(db, run.id, slice))) return { state: "lost" };
    const w = d.dispatch.wave;
    if (w >= 0) {
      if ((await dispatchMissing(d, w)) === "lost") return { state: "lost" };
      const polled = await pollWave(d, w, deadline);
      if (polled !== "settled") return polled;
    }
    const next = w + 1;
    if (next >= d.waves) return { state: "finished", status: endOf(run.params.pairs, d.progress) };
    // Enter the next wave first; its pipelines are then sent one by one (dispatchMissing).
    d.dispatch = { ...d.dispatch, wave: next };
    if (!(await save(d, null))) return { state: "lost" };
    if (Date.now() >= deadline) return { state: "continue" };
  }
}

/** Sends wave w to every pipeline not yet recorded as sent for it. */
async function dispatchMissing(d: Driving, w: number): Promise<"ok" | "lost"> {
  // What the earlier waves failed; a pipeline's own local executor already blocks what reads its own failures.
  const failed = d.run.params.pairs
    .filter(([t, u, pw]) => pw < w && d.progress[progressKey(t, u)]?.status === "failed")
    .map(([taskNodeId, unitKey]) => ({ taskNodeId, unitKey }));
  for (const g of d.groups) {
    const recorded = d.dispatch.handles[g.pipelineId];
    if (!inWave(g, w) || (recorded?.wave === w && !recorded.partial)) continue;
    const relevant = g.orchestrator?.blocksDownstream ? failed.filter((f) => d.groupOf.get(progressKey(f.taskNodeId, f.unitKey)) !== g.pipelineId) : failed;
    const readsFailure = readsAFailure(d.ctx.graph, relevant);
    const pairs = g.plan.pairs.filter((p) => p.wave === w);
    const held = g.orchestrator ? pairs.filter((p) => readsFailure(p.taskNodeId, p.unitKey)) : pairs;
    const detail = g.orchestrator
      ? "not dispatched: it reads a pair of this repair that failed"
      : `not dispatched: pipeline ${g.pipeline} has no orchestrator connection`;
    for (const p of held) d.progress = { ...d.progress, [progressKey(p.taskNodeId, p.unitKey)]: { status: "failed", detail } };
    const heldAudit = held.length > 0 ? heldBackEntry(d.onRecord, w, d.waves, g.pipeline, held, detail) : null;
    if (held.length === pairs.length || !g.orchestrator) {
      d.dispatch = { ...d.dispatch, handles: { ...d.dispatch.handles, [g.pipelineId]: { wave: w, handle: null } } };
      if (!(await save(d, heldAudit))) return "lost";
      continue;
    }
    if (heldAudit && !(await save(d, heldAudit))) return "lost";
    const plan = held.length > 0 ? { ...g.plan, pairs: g.plan.pairs.filter((p) => !held.includes(p)) } : g.plan;
    if (!(await ownsRun(d.db, d.run.id, d.slice))) return "lost";
    const orchestrator = g.orchestrator;
    let sent: Awaited<ReturnType<typeof orchestrator.dispatchWave>>;
    try {
      sent = await orchestrator.dispatchWave(plan, w, recorded?.wave === w && recorded.partial ? recorded.handle : null);
    } catch (e) {
      if (e instanceof OrchestratorError) {
        const entry = dispatchFailedEntry(d.onRecord, {
          wave: w,
          pipeline: g.pipeline,
          orchestrator: orchestrator.kind,
          message: e.message,
          calls: [...e.earlier, e.call],
        });
        if (e.started) {
          // What did start is kept with the run, so a cancel stops it; the wave is sent again on the retry.
          d.dispatch = { ...d.dispatch, handles: { ...d.dispatch.handles, [g.pipelineId]: { wave: w, handle: e.started, partial: true } } };
          await save(d, entry);
        } else await inTransaction(d.db, (tx) => appendAudit(tx, entry));
      }
      throw e;
    }
    d.dispatch = { ...d.dispatch, handles: { ...d.dispatch.handles, [g.pipelineId]: { wave: w, handle: sent.handle } } };
    const audit =
      orchestrator.kind !== "local" || sent.calls.length > 0
        ? dispatchedEntry(d.onRecord, {
            wave: w,
            waves: d.waves,
            pipeline: g.pipeline,
            orchestrator: orchestrator.kind,
            pairs: plan.pairs.filter((p) => p.wave === w).length,
            held: held.length,
            calls: sent.calls,
          })
        : null;
    if (!(await save(d, audit))) return "lost";
  }
  return "ok";
}

/**
 * Polls each pipeline sent for wave w once and saves what changed. `settled` when every pair of
 * the wave succeeded or failed; otherwise the slice goes on polling (local work, within its
 * deadline) or hands the run to the next slice, after POLL_SECONDS when an orchestrator runs it.
 */
async function pollWave(d: Driving, w: number, deadline: number): Promise<"settled" | Drive> {
  for (;;) {
    const calls: OrchestratorCall[] = [];
    const changed: PairProgress[] = [];
    for (const g of d.groups) {
      const sent = d.dispatch.handles[g.pipelineId];
      if (!g.orchestrator || !sent || sent.wave !== w || !sent.handle || sent.partial || !inWave(g, w)) continue;
      const polled = await g.orchestrator.poll(g.plan, w, sent.handle, { deadline });
      calls.push(...polled.calls);
      for (const p of polled.pairs) {
        const key = progressKey(p.taskNodeId, p.unitKey);
        const was = d.progress[key];
        if (was && SETTLED.has(was.status)) continue;
        if (was?.status !== p.status || was.externalId !== p.externalId) changed.push(p);
        d.progress = {
          ...d.progress,
          [key]: { status: p.status, ...(p.externalId ? { externalId: p.externalId } : {}), ...(p.detail ? { detail: p.detail.slice(0, 500) } : {}) },
        };
      }
    }
    const external = d.groups.some((g) => g.orchestrator && g.orchestrator.kind !== "local" && inWave(g, w));
    const pending = d.run.params.pairs.some(([t, u, pw]) => pw === w && !SETTLED.has(d.progress[progressKey(t, u)]?.status ?? ""));
    // A quiet poll's calls wait in the run for the next entry; they are written when a pair
    // changes, when the wave ends, or once QUIET_CALLS have gathered. A pair that changed is
    // written even without a call: dbt's progress is the ledger, nothing is asked of dbt.
    const quiet = [...(d.dispatch.quietCalls ?? []), ...calls.map(describeCall)] as CallOnRecord[];
    const flush = external && (changed.length > 0 || (quiet.length > 0 && (!pending || quiet.length >= QUIET_CALLS)));
    d.dispatch = { ...d.dispatch, quietCalls: external && !flush ? quiet : [] };
    if (!(await save(d, flush ? progressEntry(d.onRecord, w, d.waves, changed, quiet) : null))) return { state: "lost" };
    if (!pending) return "settled";
    if (external) return { state: "continue", afterSeconds: POLL_SECONDS };
    if (Date.now() >= deadline) return { state: "continue" };
    // Taken over, or asked to cancel, between two local polls.
    if (!(await ownsRun(d.db, d.run.id, d.slice))) return { state: "lost" };
  }
}

/** The run's end from its pairs (runEndOf). */
function endOf(pairs: RepairRunParams["pairs"], progress: Progress): RepairRunEnd {
  return runEndOf(pairs.length, pairs.filter(([t, u]) => progress[progressKey(t, u)]?.status === "succeeded").length);
}

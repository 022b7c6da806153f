import crypto from "node:crypto";
import { nextStatus, statusesAllowing } from "@/lib/domain/incident-lifecycle";
import { inTransaction, type Db } from "../repositories/database";
import { appendAudit } from "../audit/append-audit";
import { counted } from "@/lib/domain/words";
import { SLICE_SECONDS } from "../jobs/job-queue";
import { log } from "../observability/log";
import type { LocalOptions, LocalRunContext } from "../orchestrators/local";
import { OrchestratorError, type OrchestratorCall, type PairProgress } from "../orchestrators/port";
import { transitionIncident } from "../repositories/incidents/incidents";
import { releaseClaims } from "../repositories/repairs/repair-claims";
import {
  attemptsOfRun,
  failOrphanedAttempts,
  findRepairRun,
  finishRunStatus,
  heartbeat,
  lockRun,
  markRunStarted,
  ownsRun,
  requestCancel,
  saveDispatchState,
  setRunOwner,
  type RepairRunParams,
  type RepairRunRecord,
} from "../repositories/repairs/repair-runs";
import { readsAFailure } from "@/lib/domain/blocked-pairs";
import { nodeName, type NodeId } from "@/lib/domain/ids";
import { dispatchGroups, progressKey, type DispatchGroup } from "./dispatch-groups";
import { loadRepairContext } from "./load-repair-context";
import { HEARTBEAT_MS, markLive, ownerAlive, thisOwner } from "./repair-owner";
import { isActiveRun, runEndOf, type RepairRunEnd } from "@/lib/domain/repair-run-lifecycle";

export interface RunRepairOptions extends LocalOptions {
  /** How long one slice may start work (SLICE_SECONDS by default). */
  sliceMs?: number;
  /** The queue job running this slice (recorded with the owner, so a watchdog can give it up). */
  jobId?: string;
  /** runRepairToEnd: how long to wait before polling an orchestrator again (its `afterSeconds` by default). */
  pollMs?: number;
}

/** `continue`: run the next slice, after `afterSeconds` when the run waits on an orchestrator. */
export type SliceOutcome = { state: "finished"; status: RepairRunEnd } | { state: "continue"; afterSeconds?: number } | { state: "gone" } | { state: "busy" };

/** A run fails after this many slices in a row stopped on an unexpected error. */
const MAX_FAILED_SLICES = 3;
/** An orchestrator that cannot be reached is asked again this many times (backing off) before the run fails. */
const MAX_UNREACHABLE = 10;
/** How often a run waiting on an orchestrator polls it. */
export const POLL_SECONDS = 3;
/** Quiet polls' calls gathered before they are written without a change (about a minute of polling). */
const QUIET_CALLS = 40;

/**
 * One slice of a launched repair run: the `repair-run` job's work. The slice takes the run —
 * a lease: owner and heartbeat, taken under the run's row lock — and drives each pipeline's
 * orchestrator (the port, lib/server/orchestrators) wave by wave for up to SLICE_SECONDS:
 * dispatch a wave, poll it until every pair of it is settled, then the next. It either finishes
 * the run (status, claims released, the incident on to validation, the outcome audited: one
 * transaction) or releases it to the next slice, on this instance or any other.
 *
 * A run still owned by a live slice (fresh heartbeat, or its pid alive on this host) is left to
 * it: `busy`. A run owned by a slice that is gone is taken over from its exact progress: the
 * dead slice's unfinished attempts are failed with the rows they really wrote, audited as
 * `repair.taken_over`, and the pairs not yet done go on; nothing already published runs again.
 * An unexpected error releases the run to be tried again; the third in a row fails it.
 */
export async function runRepairSlice(runId: string, db: Db, options: RunRepairOptions = {}): Promise<SliceOutcome> {
  const slice = crypto.randomUUID();
  const taken = await takeRun(db, runId, { ...thisOwner(), ...(options.jobId ? { job: options.jobId } : {}), slice });
  if (taken.state !== "taken") return taken;
  const run = taken.run;
  markLive(runId, true);
  let beating: Promise<void> = Promise.resolve();
  const beat = setInterval(() => {
    beating = heartbeat(db, runId, slice, Date.now()).catch(() => undefined);
  }, HEARTBEAT_MS);
  beat.unref();
  const stop = async () => {
    clearInterval(beat);
    await beating;
  };
  try {
    const result = await driveSlice(db, run, slice, Date.now() + (options.sliceMs ?? SLICE_SECONDS * 1000), options);
    await stop();
    if (result.state === "finished") {
      await finishRepair(db, runId, result.status, slice);
      return result;
    }
    if (result.state === "lost") {
      // Asked to cancel while this slice held the run: it stops the run itself (it knows what it sent).
      const now = await findRepairRun(db, runId);
      if (now?.params.cancelRequested && now.params.owner?.slice === slice) {
        await stopCancelled(db, runId, slice);
        return { state: "finished", status: "cancelled" };
      }
      return { state: "gone" };
    }
    await inTransaction(db, (tx) => setRunOwner(tx, runId, null, Date.now(), slice, { failedSlices: 0 }));
    return { state: "continue", ...(result.afterSeconds ? { afterSeconds: result.afterSeconds } : {}) };
  } catch (e) {
    await stop();
    const failed = (run.params.failedSlices ?? 0) + 1;
    // Not reached, rate-limited or failing on its side: asked again, backing off, before the run fails.
    const unreachable = e instanceof OrchestratorError && (e.call.status === null || e.call.status === 429 || e.call.status >= 500);
    log.error({ runId, failedSlices: failed, err: e }, `repair run ${runId}: a slice stopped on an error`);
    if (failed >= (unreachable ? MAX_UNREACHABLE : MAX_FAILED_SLICES)) {
      // The run gives up: what its orchestrators still run for the wave in flight is stopped first.
      await cancelInFlight(db, runId).catch((err: unknown) => log.error({ runId, err }, `repair run ${runId}: cancelling the wave in flight failed`));
      await finishRepair(db, runId, "failed", slice, e instanceof Error ? e.message : String(e));
      return { state: "finished", status: "failed" };
    }
    await inTransaction(db, (tx) => setRunOwner(tx, runId, null, Date.now(), slice, { failedSlices: failed }));
    if (unreachable) return { state: "continue", afterSeconds: Math.min(60, POLL_SECONDS * 2 ** failed) };
    throw e;
  } finally {
    markLive(runId, false);
  }
}

type Drive = { state: "finished"; status: RepairRunEnd } | { state: "continue"; afterSeconds?: number } | { state: "lost" };
type Progress = RepairRunParams["progress"];

const SETTLED = new Set(["succeeded", "failed"]);

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
async function driveSlice(db: Db, run: RepairRunRecord, slice: string, deadline: number, options: RunRepairOptions): Promise<Drive> {
  const now = new Date();
  if (run.status === "queued") await markRunStarted(db, run.id, now);
  const ctx = await loadRepairContext(db, now);
  const groups = await runGroups(db, ctx, run, { db, concurrency: run.params.concurrency, stillOwner: () => ownsRun(db, run.id, slice), options });
  const waves = Math.max(0, ...run.params.pairs.map(([, , w]) => w + 1));
  let dispatch = run.params.dispatch ?? { wave: -1, handles: {}, quietCalls: [] };
  let progress: Progress = { ...run.params.progress };
  const inWave = (g: DispatchGroup, w: number) => g.plan.pairs.some((p) => p.wave === w);
  const save = (audit: Parameters<typeof appendAudit>[1] | null) =>
    inTransaction(
      db,
      async (tx) => {
        if (!(await saveDispatchState(tx, run.id, slice, { dispatch, progress }))) return false;
        if (audit) await appendAudit(tx, audit);
        return true;
      },
      { timeout: 30_000, maxWait: 30_000 },
    );
  const actor = { actor: run.params.launchedBy.id, actorRole: run.params.launchedBy.role, incidentId: run.incidentId };
  const groupOf = new Map(groups.flatMap((g) => g.plan.pairs.map((p) => [progressKey(p.taskNodeId, p.unitKey), g.pipelineId] as const)));

  /** Sends wave w to every pipeline not yet recorded as sent for it. */
  const dispatchMissing = async (w: number): Promise<"ok" | "lost"> => {
    // What the earlier waves failed; a pipeline's own local executor already blocks what reads its own failures.
    const failed = run.params.pairs
      .filter(([t, u, pw]) => pw < w && progress[progressKey(t, u)]?.status === "failed")
      .map(([taskNodeId, unitKey]) => ({ taskNodeId, unitKey }));
    for (const g of groups) {
      if (!inWave(g, w) || dispatch.handles[g.pipelineId]?.wave === w) continue;
      const relevant = g.orchestrator?.blocksDownstream ? failed.filter((f) => groupOf.get(progressKey(f.taskNodeId, f.unitKey)) !== g.pipelineId) : failed;
      const readsFailure = readsAFailure(ctx.graph, relevant);
      const pairs = g.plan.pairs.filter((p) => p.wave === w);
      const held = g.orchestrator ? pairs.filter((p) => readsFailure(p.taskNodeId, p.unitKey)) : pairs;
      const detail = g.orchestrator
        ? "not dispatched: it reads a pair of this repair that failed"
        : `not dispatched: pipeline ${g.pipeline} has no orchestrator connection`;
      for (const p of held) progress = { ...progress, [progressKey(p.taskNodeId, p.unitKey)]: { status: "failed", detail } };
      const heldAudit =
        held.length > 0
          ? {
              kind: "repair.progress" as const,
              ...actor,
              reason: `repair #${run.repairNumber}, wave ${w + 1} of ${waves}: ${held.length} pairs of ${g.pipeline} held back — ${detail}`,
              before: null,
              after: {
                runId: run.id,
                wave: w,
                changed: held.map((p) => ({ taskNodeId: p.taskNodeId, unitKey: p.unitKey, status: "failed", externalId: null })),
                calls: [],
              },
            }
          : null;
      if (held.length === pairs.length || !g.orchestrator) {
        dispatch = { ...dispatch, handles: { ...dispatch.handles, [g.pipelineId]: { wave: w, handle: null } } };
        if (!(await save(heldAudit))) return "lost";
        continue;
      }
      if (heldAudit && !(await save(heldAudit))) return "lost";
      const plan = held.length > 0 ? { ...g.plan, pairs: g.plan.pairs.filter((p) => !held.includes(p)) } : g.plan;
      if (!(await ownsRun(db, run.id, slice))) return "lost";
      let sent: Awaited<ReturnType<NonNullable<DispatchGroup["orchestrator"]>["dispatchWave"]>>;
      try {
        sent = await g.orchestrator.dispatchWave(plan, w);
      } catch (e) {
        if (e instanceof OrchestratorError) {
          await inTransaction(db, (tx) =>
            appendAudit(tx, {
              kind: "repair.dispatch_failed",
              ...actor,
              reason: `repair #${run.repairNumber}, wave ${w + 1}: ${e.message}`,
              before: null,
              after: { runId: run.id, wave: w, pipeline: g.pipeline, orchestrator: g.orchestrator!.kind, calls: [...e.earlier, e.call].map(describeCall) },
            }),
          );
        }
        throw e;
      }
      dispatch = { ...dispatch, handles: { ...dispatch.handles, [g.pipelineId]: { wave: w, handle: sent.handle } } };
      const audit =
        g.orchestrator.kind !== "local" || sent.calls.length > 0
          ? {
              kind: "repair.dispatched" as const,
              ...actor,
              reason: `repair #${run.repairNumber}, wave ${w + 1} of ${waves}: ${plan.pairs.filter((p) => p.wave === w).length} pairs of ${g.pipeline} sent to ${g.orchestrator.kind}${held.length > 0 ? ` (${held.length} held back: they read a failed pair)` : ""}`,
              before: null,
              after: { runId: run.id, wave: w, pipeline: g.pipeline, orchestrator: g.orchestrator.kind, calls: sent.calls.map(describeCall) },
            }
          : null;
      if (!(await save(audit))) return "lost";
    }
    return "ok";
  };

  for (;;) {
    // Taken over, or asked to cancel: stop here (a cancel is then carried out by runRepairSlice).
    if (!(await ownsRun(db, run.id, slice))) return { state: "lost" };
    const w = dispatch.wave;
    if (w >= 0) {
      if ((await dispatchMissing(w)) === "lost") return { state: "lost" };
      const calls: OrchestratorCall[] = [];
      const changed: PairProgress[] = [];
      for (const g of groups) {
        const sent = dispatch.handles[g.pipelineId];
        if (!g.orchestrator || !sent || sent.wave !== w || !sent.handle || !inWave(g, w)) continue;
        const polled = await g.orchestrator.poll(g.plan, w, sent.handle, { deadline });
        calls.push(...polled.calls);
        for (const p of polled.pairs) {
          const key = progressKey(p.taskNodeId, p.unitKey);
          const was = progress[key];
          if (was && SETTLED.has(was.status)) continue;
          if (was?.status !== p.status || was.externalId !== p.externalId) changed.push(p);
          progress = {
            ...progress,
            [key]: { status: p.status, ...(p.externalId ? { externalId: p.externalId } : {}), ...(p.detail ? { detail: p.detail.slice(0, 500) } : {}) },
          };
        }
      }
      const external = groups.some((g) => g.orchestrator && g.orchestrator.kind !== "local" && inWave(g, w));
      const pending = run.params.pairs.some(([t, u, pw]) => pw === w && !SETTLED.has(progress[progressKey(t, u)]?.status ?? ""));
      // A quiet poll's calls wait in the run for the next entry; they are written when a pair
      // changes, when the wave ends, or once QUIET_CALLS have gathered. A pair that changed is
      // written even without a call: dbt's progress is the ledger, nothing is asked of dbt.
      const quiet = [...(dispatch.quietCalls ?? []), ...calls.map(describeCall)];
      const flush = external && (changed.length > 0 || (quiet.length > 0 && (!pending || quiet.length >= QUIET_CALLS)));
      dispatch = { ...dispatch, quietCalls: external && !flush ? quiet : [] };
      const audit = flush
        ? {
            kind: "repair.progress" as const,
            ...actor,
            reason: `repair #${run.repairNumber}, wave ${w + 1} of ${waves}: ${
              changed.length === 0
                ? `${counted(quiet.length, "call")} while polling, nothing changed`
                : `${changed
                    .map((p) => `${nodeName(p.taskNodeId as NodeId)} ${p.unitKey} ${p.status}`)
                    .slice(0, 10)
                    .join(", ")}${changed.length > 10 ? ` and ${changed.length - 10} more` : ""}`
            }`,
            before: null,
            after: {
              runId: run.id,
              wave: w,
              changed: changed.map((p) => ({ taskNodeId: p.taskNodeId, unitKey: p.unitKey, status: p.status, externalId: p.externalId ?? null })),
              calls: quiet as ReturnType<typeof describeCall>[],
            },
          }
        : null;
      if (!(await save(audit))) return { state: "lost" };
      if (pending) {
        if (external) return { state: "continue", afterSeconds: POLL_SECONDS };
        if (Date.now() >= deadline) return { state: "continue" };
        continue;
      }
    }
    const next = w + 1;
    if (next >= waves) return { state: "finished", status: statusOf(run.params.pairs, progress) };
    // Enter the next wave first; its pipelines are then sent one by one (dispatchMissing).
    dispatch = { ...dispatch, wave: next };
    if (!(await save(null))) return { state: "lost" };
    if (Date.now() >= deadline) return { state: "continue" };
  }
}

/** A launched run's pipelines with their adapters, as its connections were at launch. */
function runGroups(db: Db, ctx: Awaited<ReturnType<typeof loadRepairContext>>, run: RepairRunRecord, local: LocalRunContext | null) {
  return dispatchGroups(
    db,
    ctx,
    {
      incidentId: run.incidentId ?? "",
      runId: run.id,
      repairNumber: run.repairNumber,
      pairs: run.params.pairs,
      parameterOverrides: run.params.parameterOverrides,
      idempotencyKeys: run.params.idempotencyKeys,
      excluded: [],
      connections: run.params.connections,
      failedRunId: run.rootRunId,
      launchedAt: run.createdAt,
    },
    local,
  );
}

/** Who stops a run and why: the operator who cancels it, or (null) the run giving up on its own. */
export interface StoppedBy {
  readonly actor: { readonly id: string; readonly role: string };
  readonly reason: string;
}

/**
 * Cancels a running repair from the console: first each orchestrator is asked to stop what it
 * runs for the wave in flight (`repair.cancel_sent`, every call and its answer), then the run
 * ends `cancelled` in one transaction with its claims released, the incident on to validation
 * (what did finish is validated from the ledger as usual; a resume runs only what did not) and
 * `repair.finished` naming who cancelled and why. A slice driving the run stops at its next
 * ownership check: it can no longer save progress for a run that is not running.
 */
export async function cancelRepairRun(
  db: Db,
  runId: string,
  by: StoppedBy,
  waitMs = 30_000,
): Promise<{ calls: OrchestratorCall[]; cancelled: boolean; pending: boolean }> {
  const me = { ...thisOwner(), slice: `cancel-${crypto.randomUUID()}` };
  // Under the run's lock: the request stops every slice from sending or starting anything more.
  // A live slice still records what it is sending this instant, then stops the run itself; a run
  // between slices (or whose slice died) is taken here, so no slice starts it again.
  const taken = await inTransaction(
    db,
    async (tx) => {
      const run = await requestCancel(tx, runId, { actor: { id: by.actor.id, role: by.actor.role }, reason: by.reason, at: Date.now() });
      if (!run) return { state: "ended" as const };
      if (run.params.owner && ownerAlive(run.id, run.params.owner, run.params.heartbeatAt, Date.now())) return { state: "live" as const };
      if (run.params.owner && run.status === "running") await failOrphanedAttempts(tx, run.id, new Date());
      await setRunOwner(tx, run.id, me, Date.now());
      return { state: "taken" as const };
    },
    { timeout: 30_000, maxWait: 30_000 },
  );
  if (taken.state === "ended") return { calls: [], cancelled: false, pending: false };
  if (taken.state === "taken") {
    markLive(runId, true); // this process holds it now: a slice queued here leaves it alone
    try {
      return await stopCancelled(db, runId, me.slice);
    } finally {
      markLive(runId, false);
    }
  }
  // The live slice stops it at its next check (each pair, poll and wave): wait for that.
  for (const until = Date.now() + waitMs; Date.now() < until;) {
    const run = await findRepairRun(db, runId);
    if (run && !isActiveRun(run.status)) return { calls: [], cancelled: run.status === "cancelled", pending: false };
    await new Promise((r) => setTimeout(r, 200));
  }
  return { calls: [], cancelled: false, pending: true };
}

/** The cancel itself, by whoever holds the run (`slice`): the wave in flight stopped in its orchestrators, then the run ended. */
async function stopCancelled(db: Db, runId: string, slice: string): Promise<{ calls: OrchestratorCall[]; cancelled: boolean; pending: boolean }> {
  const request = (await findRepairRun(db, runId))?.params.cancelRequested;
  if (!request) return { calls: [], cancelled: false, pending: false };
  const by: StoppedBy = { actor: request.actor, reason: request.reason };
  const calls = await cancelInFlight(db, runId, by);
  const cancelled = await finishRepair(db, runId, "cancelled", slice, undefined, by);
  return { calls, cancelled, pending: false };
}

/** Asks each orchestrator to stop what it runs for the wave in flight; the calls are audited. */
async function cancelInFlight(db: Db, runId: string, by: StoppedBy | null = null): Promise<OrchestratorCall[]> {
  const run = await findRepairRun(db, runId);
  const dispatch = run?.params.dispatch;
  if (!run || !dispatch || dispatch.wave < 0) return [];
  const ctx = await loadRepairContext(db, new Date());
  const groups = await runGroups(db, ctx, run, null);
  const calls: OrchestratorCall[] = [];
  for (const g of groups) {
    const sent = dispatch.handles[g.pipelineId];
    if (!g.orchestrator || g.orchestrator.kind === "local" || !sent?.handle || sent.wave !== dispatch.wave) continue;
    try {
      calls.push(...(await g.orchestrator.cancel(g.plan, sent.handle)).calls);
    } catch (e) {
      if (e instanceof OrchestratorError) calls.push(...e.earlier, e.call);
    }
  }
  if (calls.length === 0) return [];
  await inTransaction(db, (tx) =>
    appendAudit(tx, {
      kind: "repair.cancel_sent",
      actor: by?.actor.id ?? run.params.launchedBy.id,
      actorRole: by?.actor.role ?? run.params.launchedBy.role,
      incidentId: run.incidentId,
      reason: by
        ? `repair #${run.repairNumber} cancelled by ${by.actor.id} (${by.reason}): what wave ${dispatch.wave + 1} still ran in its orchestrators was asked to stop`
        : `repair #${run.repairNumber} failed: what wave ${dispatch.wave + 1} still ran in its orchestrators was asked to stop`,
      before: null,
      after: { runId, wave: dispatch.wave, calls: calls.map(describeCall) },
    }),
  );
  return calls;
}

/** The run's outcome from its pairs (runEndOf). */
function statusOf(pairs: RepairRunParams["pairs"], progress: Progress): RepairRunEnd {
  return runEndOf(pairs.length, pairs.filter(([t, u]) => progress[progressKey(t, u)]?.status === "succeeded").length);
}

/** A call as the audit log keeps it: method, URL, status, ids — never a header or a secret. */
function describeCall(c: OrchestratorCall) {
  return {
    orchestrator: c.orchestrator,
    method: c.method,
    url: c.url,
    status: c.status,
    ...(c.ids ? { ids: c.ids } : {}),
    ...(c.error ? { error: c.error } : {}),
    ...(c.dryRun ? { dryRun: true } : {}),
  };
}

type Owner = NonNullable<RepairRunParams["owner"]>;
type Taken = { state: "taken"; run: NonNullable<Awaited<ReturnType<typeof findRepairRun>>> } | { state: "gone" } | { state: "busy" };

/** Takes the run for this slice under its row lock; a run still owned by a live slice is left alone. */
async function takeRun(db: Db, runId: string, me: Owner): Promise<Taken> {
  const now = new Date();
  return inTransaction(
    db,
    async (tx): Promise<Taken> => {
      await lockRun(tx, runId);
      const run = await findRepairRun(tx, runId);
      if (!run || !isActiveRun(run.status)) return { state: "gone" };
      const previous = run.params.owner;
      if (previous && ownerAlive(run.id, previous, run.params.heartbeatAt, now.getTime())) return { state: "busy" };
      if (previous && run.status === "running") {
        const abandoned = await failOrphanedAttempts(tx, run.id, now);
        const done = (await attemptsOfRun(tx, run.id)).filter((a) => a.status === "succeeded").length;
        await appendAudit(
          tx,
          {
            kind: "repair.taken_over",
            actor: run.params.launchedBy.id,
            actorRole: run.params.launchedBy.role,
            reason: `repair #${run.repairNumber} was left running by console ${previous.host} (pid ${previous.pid}), which stopped: continued from its progress, ${done} of ${run.params.pairs.length} pairs done`,
            incidentId: run.incidentId,
            before: { owner: describeOwner(previous) },
            after: { owner: describeOwner(me), done, remaining: run.params.pairs.length - done, abandonedAttempts: abandoned },
          },
          now,
        );
      }
      await setRunOwner(tx, run.id, me, now.getTime());
      return { state: "taken", run };
    },
    { timeout: 30_000, maxWait: 30_000 },
  );
}

const describeOwner = (o: { host: string; pid: number; instance: string }) => `${o.host} pid ${o.pid} (instance ${o.instance})`;

/**
 * The run's end, all at once: its status, owner released, claims released, incident moved on,
 * outcome audited. `slice`: only while that slice owns the run (undefined: whoever owns it, for a
 * cancel). False when the run had ended or was taken over meanwhile.
 */
async function finishRepair(
  db: Db,
  runId: string,
  status: RepairRunEnd,
  slice: string | undefined,
  error?: string,
  by: StoppedBy | null = null,
): Promise<boolean> {
  // Each pair's end: its latest attempt when this console ran it, else what its orchestrator reported.
  const attempts = new Map((await attemptsOfRun(db, runId)).map((a) => [progressKey(a.taskNodeId, a.unitKey), a.status]));
  const before = await findRepairRun(db, runId);
  const ends = (before?.params.pairs ?? []).map(([t, u]) => attempts.get(progressKey(t, u)) ?? before?.params.progress[progressKey(t, u)]?.status ?? "pending");
  const count = (s: string) => ends.filter((x) => x === s).length;
  return inTransaction(
    db,
    async (tx) => {
      if (!(await setRunOwner(tx, runId, null, Date.now(), slice))) return false; // taken over meanwhile: the new owner finishes it
      if (!(await finishRunStatus(tx, runId, status, new Date()))) return false; // finished already
      const run = (await findRepairRun(tx, runId))!;
      await releaseClaims(tx, runId);
      // The lifecycle's finish_repair (repairing → validating), in the run's end. Whatever the incident's status, the run still ends and frees its units.
      if (run.incidentId)
        for (const from of statusesAllowing("finish_repair")) await transitionIncident(tx, run.incidentId, [from], nextStatus(from, "finish_repair")!);
      await appendAudit(tx, {
        kind: "repair.finished",
        actor: by?.actor.id ?? run.params.launchedBy.id,
        actorRole: by?.actor.role ?? run.params.launchedBy.role,
        reason: by
          ? `repair #${run.repairNumber} cancelled by ${by.actor.id}: ${by.reason}`
          : `repair #${run.repairNumber} ended: ${status}${error ? ` (${error.slice(0, 300)})` : ""}`,
        incidentId: run.incidentId,
        before: { runStatus: before?.status ?? "running" },
        after: { runStatus: status, succeeded: count("succeeded"), failed: count("failed"), blocked: count("upstream_failed") },
      });
      return true;
    },
    { timeout: 30_000, maxWait: 30_000 },
  );
}

/**
 * Runs a launched repair to its end in this process, slice after slice: what the `repair-run`
 * job chain does across instances, for the CLI, tests and a console without background workers.
 */
export async function runRepairToEnd(runId: string, db: Db, options: RunRepairOptions = {}): Promise<string> {
  for (;;) {
    const outcome = await runRepairSlice(runId, db, options);
    if (outcome.state === "finished") return outcome.status;
    if (outcome.state === "gone") return (await findRepairRun(db, runId))?.status ?? "gone";
    if (outcome.state === "continue" && outcome.afterSeconds) await new Promise((r) => setTimeout(r, options.pollMs ?? outcome.afterSeconds! * 1000));
    if (outcome.state === "busy") await new Promise((r) => setTimeout(r, 1_000));
  }
}

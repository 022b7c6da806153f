import { nodeName, type NodeId } from "@/lib/domain/ids";
import type { ProgressView } from "@/lib/contracts/repair";
import { getDb, type Db } from "../repositories/database";
import { requireIncident } from "../incidents/require-incident";
import { attemptsOfRun, repairRunsOfIncident } from "../repositories/repair/repair-runs";
import { progressKey } from "./dispatch-groups";
import { listPipelines } from "../repositories/pipelines/orchestrator-connections";
import { isActiveRun, runAllowedActions } from "@/lib/domain/repair-run-lifecycle";

type PairStatus = ProgressView["pairs"][number]["status"];
const STATUS: Record<string, PairStatus> = {
  succeeded: "succeeded",
  failed: "failed",
  upstream_failed: "upstream_failed",
  running: "running",
  queued: "running",
};

/**
 * Per-unit progress of the incident's latest repair run, from its attempts (polled by the
 * Execute step). A run whose console process is gone is taken over by another (repair-watchdog.ts).
 */
export async function getProgress(id: string, db: Db = getDb()): Promise<ProgressView> {
  await requireIncident(db, id);
  const run = (await repairRunsOfIncident(db, id)).at(-1);
  if (!run) return { run: null, total: 0, done: 0, succeeded: 0, failed: 0, pairs: [], dispatched: [] };
  const latest = new Map<string, Awaited<ReturnType<typeof attemptsOfRun>>[number]>();
  for (const a of await attemptsOfRun(db, run.id)) latest.set(progressKey(a.taskNodeId, a.unitKey), a);
  const pairs = run.params.pairs.map(([task, unitKey, wave]) => {
    const key = progressKey(task, unitKey);
    const a = latest.get(key);
    // A pair this console ran has attempts; one an orchestrator runs has what it last reported.
    const reported = run.params.progress[key];
    if (!a && reported)
      return {
        taskNodeId: task,
        name: nodeName(task as NodeId),
        unitKey,
        wave,
        status: reported.status as PairStatus,
        rows: null,
        error: [reported.externalId, reported.detail].filter(Boolean).join(" · ") || null,
      };
    return {
      taskNodeId: task,
      name: nodeName(task as NodeId),
      unitKey,
      wave,
      status: a ? (STATUS[a.status] ?? "running") : ("pending" as PairStatus),
      rows: a?.rowsWritten ?? null,
      error: a?.error ?? null,
    };
  });
  const count = (...s: PairStatus[]) => pairs.filter((p) => s.includes(p.status)).length;
  return {
    run: {
      id: run.id,
      status: run.status,
      allowedActions: runAllowedActions(run.status, Boolean(run.params.cancelRequested)),
      repairNumber: run.repairNumber,
      rootRunId: run.rootRunId,
      startedAt: run.startedAt?.toISOString() ?? null,
      endedAt: run.endedAt?.toISOString() ?? null,
      fault: run.params.fault ? { ...run.params.fault, at: new Date(run.params.fault.at).toISOString() } : null,
    },
    total: pairs.length,
    done: count("succeeded", "failed", "upstream_failed"),
    succeeded: count("succeeded"),
    failed: count("failed", "upstream_failed"),
    pairs,
    dispatched: await dispatchedNow(db, run),
  };
}

/** The wave in flight per pipeline (its orchestrator; for dbt, the command to run), while the run is active. */
async function dispatchedNow(db: Db, run: Awaited<ReturnType<typeof repairRunsOfIncident>>[number]): Promise<ProgressView["dispatched"]> {
  if (!run.params.dispatch || !isActiveRun(run.status)) return [];
  const names = new Map((await listPipelines(db)).map((p) => [p.id, p.name]));
  const { wave, handles } = run.params.dispatch;
  return Object.entries(handles).flatMap(([pipelineId, sent]) => {
    const connection = run.params.connections[pipelineId];
    if (!connection || connection.kind === "local" || sent.wave !== wave || !sent.handle) return [];
    return [
      {
        pipeline: names.get(pipelineId) ?? pipelineId,
        orchestrator: connection.kind,
        wave,
        command: typeof sent.handle.command === "string" ? sent.handle.command : null,
        alternative: typeof sent.handle.alternative === "string" ? sent.handle.alternative : null,
      },
    ];
  });
}

/** 404 for an unknown incident, before a stream opens. */
export async function requireIncidentExists(id: string, db: Db = getDb()): Promise<void> {
  await requireIncident(db, id);
}

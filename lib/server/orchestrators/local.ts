import { compositeKey } from "@/lib/domain/composite-key";
import type { Db } from "../repositories/database";
import { executeRunSlice, recordRejectedPairs, rejectedPairs } from "../executor/execute-existing-run";
import { hasTaskCode } from "../executor/task-code/registry";
import type { TaskCode } from "../executor/types";
import { attemptsOfRun } from "../repositories/repair/repair-runs";
import type { DispatchPlan, Orchestrator, PairProgress, PairStatus, RequestsResult } from "./port";

export interface LocalOptions {
  /** The executor's task-code lookup (the demo's registry by default). */
  taskCode?: (taskNodeId: string) => TaskCode;
}

export interface LocalRunContext {
  db: Db;
  concurrency: number;
  /** Asked before each pair starts: false once another slice took the run over. */
  stillOwner: () => Promise<boolean>;
  options?: LocalOptions;
}

const STATUS: Record<string, PairStatus> = { succeeded: "succeeded", failed: "failed", upstream_failed: "failed", running: "running", queued: "running" };

/**
 * The `local` orchestrator: the demo's own executor (lib/server/executor) running the demo's
 * task code in this console — configured for the demo's pipelines only. "Polling" a wave
 * executes its pairs until the slice's deadline; the executor orders them by their own
 * dependencies, records every attempt, and blocks what reads a failed pair itself.
 */
export function localOrchestrator(run: LocalRunContext | null): Orchestrator {
  const requests = (plan: DispatchPlan): RequestsResult => {
    const byTask = new Map<string, string[]>();
    const known = run?.options?.taskCode ? () => true : hasTaskCode;
    for (const p of plan.pairs) if (!known(p.taskNodeId)) byTask.set(p.taskNodeId, [...(byTask.get(p.taskNodeId) ?? []), p.unitKey]);
    return {
      requests: [],
      unsupported: [...byTask].map(([taskNodeId, units]) => ({
        taskNodeId,
        units,
        reason: "the local executor has no code for this task (it runs only the demo's tasks): connect the pipeline to its orchestrator",
      })),
    };
  };
  const need = () => {
    if (!run) throw new Error("the local orchestrator runs pairs only inside a repair run");
    return run;
  };
  return {
    kind: "local",
    blocksDownstream: true,
    requests,
    async preview(plan) {
      return { ...requests(plan), extra: [], missing: [], calls: [] };
    },
    async dispatchWave(plan, wave) {
      const r = need();
      if (wave === 0 && plan.runId) await recordRejectedPairs(r.db, plan.runId, plan.pairs, new Date());
      return { handle: { wave }, calls: [] };
    },
    async poll(plan, wave, _handle, { deadline }) {
      const r = need();
      const runId = plan.runId!;
      const inWave = plan.pairs.filter((p) => p.wave === wave);
      const rejected = await rejectedPairs(r.db, plan.pairs, new Date());
      await executeRunSlice(r.db, {
        runId,
        pairs: plan.pairs.filter((p) => !rejected.has(compositeKey(p.taskNodeId, p.unitKey))),
        clock: () => new Date(),
        concurrency: r.concurrency,
        parameters: plan.parameterOverrides,
        taskCode: r.options?.taskCode,
        idempotencyKey: (task) => plan.idempotencyKeys[task],
        deadline,
        stillOwner: r.stillOwner,
        only: new Set(inWave.map((p) => compositeKey(p.taskNodeId, p.unitKey))),
      });
      const latest = new Map<string, { status: string; error: string | null; id: string }>();
      for (const a of await attemptsOfRun(r.db, runId)) latest.set(compositeKey(a.taskNodeId, a.unitKey), a);
      const pairs: PairProgress[] = inWave.map((p) => {
        const key = compositeKey(p.taskNodeId, p.unitKey);
        const reason = rejected.get(key);
        if (reason) return { taskNodeId: p.taskNodeId, unitKey: p.unitKey, status: "failed", detail: `not run: ${reason}` };
        const a = latest.get(key);
        return {
          taskNodeId: p.taskNodeId,
          unitKey: p.unitKey,
          status: a ? (STATUS[a.status] ?? "running") : "pending",
          ...(a ? { externalId: a.id } : {}),
          ...(a?.error ? { detail: a.error } : {}),
        };
      });
      return { pairs, calls: [] };
    },
    async cancel() {
      // The run's slices stop at their next pair once the run is no longer queued or running.
      return { calls: [] };
    },
  };
}

/** The demo task code the local executor runs (tests wrap it to slow or watch a task). */
export { taskCodeFor as localTaskCode } from "../executor/task-code/registry";
export type { TaskCode } from "../executor/types";

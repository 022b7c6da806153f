import { compositeKey } from "@/lib/domain/composite-key";
import { UNPARTITIONED_KEY } from "@/lib/domain/partitions";
import type { DbtConnection, PlannedRequest } from "@/lib/contracts/orchestrators";
import type { UnitOutcome } from "../repositories/unit-outcomes";
import type { DispatchPlan, Orchestrator, PairProgress, PairRef, RequestsResult, TaskFacts } from "./port";

/** The ledger's view of what ran since an instant (dbt-ol events, imported run_results). */
export type OutcomesSince = (pairs: readonly PairRef[], since: Date) => Promise<Map<string, UnitOutcome>>;

/** dbt's model name for a task: an override, else the last part of its unique id (`model.jaffle_shop.stg_orders` → stg_orders). */
export function dbtSelectorOf(connection: DbtConnection, task: TaskFacts): string {
  return connection.tasks[task.taskNodeId] ?? connection.tasks[task.name] ?? task.name.split(".").at(-1)!;
}

/** A shell word, quoted only when it needs it. */
const shell = (s: string) => (/^[A-Za-z0-9_./:=@+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/** The one unit of an unpartitioned model: nothing to pass (the model builds it whole). */
const WHOLE = new Set([UNPARTITIONED_KEY]);

interface DbtHandle {
  dispatchedAt: string;
  command: string;
}

/**
 * dbt Core: Reparo cannot run dbt in the team's project, so a wave is the exact command for the
 * operator to run there — `dbt build --select <models> --vars '{reparo_units: {model: [units]}}'`
 * (the units only for partitioned models, read by the models as `var('reparo_units')`), with the
 * connection's project directory and target. Its progress is what the team's dbt reports back
 * to Reparo afterwards: dbt-ol events, or run_results.json imported (`npm run import:dbt`,
 * POST /api/v1/ingestion/dbt) — each pair done once the ledger has an attempt of its model for the
 * unit since the wave was handed out (or a publish of what it builds).
 */
export function dbtOrchestrator(connection: DbtConnection, outcomesSince: OutcomesSince | null): Orchestrator {
  const commandOf = (plan: DispatchPlan, wave: number): string | null => {
    const pairs = plan.pairs.filter((p) => p.wave === wave);
    if (pairs.length === 0) return null;
    const byModel = new Map<string, string[]>();
    for (const p of pairs) {
      const model = dbtSelectorOf(connection, plan.tasks.get(p.taskNodeId)!);
      byModel.set(model, [...(byModel.get(model) ?? []), p.unitKey]);
    }
    const units = Object.fromEntries([...byModel].filter(([, keys]) => keys.some((k) => !WHOLE.has(k))).map(([m, keys]) => [m, keys]));
    // A side-effecting model replayed on purpose gets its idempotency key (var reparo_idempotency_keys).
    const keys = Object.fromEntries(pairs.filter((p) => plan.idempotencyKeys[p.taskNodeId]).map((p) => [dbtSelectorOf(connection, plan.tasks.get(p.taskNodeId)!), plan.idempotencyKeys[p.taskNodeId]!]));
    const vars = {
      ...plan.parameterOverrides,
      ...(Object.keys(units).length > 0 ? { [connection.unitsVar]: units } : {}),
      ...(Object.keys(keys).length > 0 ? { reparo_idempotency_keys: keys } : {}),
    };
    const words = ["dbt", "build", "--select", ...[...byModel.keys()].map(shell)];
    if (Object.keys(vars).length > 0) words.push("--vars", shell(JSON.stringify(vars)));
    if (connection.target) words.push("--target", shell(connection.target));
    if (connection.projectDir) words.push("--project-dir", shell(connection.projectDir));
    return words.join(" ");
  };
  const requests = (plan: DispatchPlan): RequestsResult => {
    const unsupported = plan.pairs.filter((p) => !plan.tasks.has(p.taskNodeId)).map((p) => ({ taskNodeId: p.taskNodeId, units: [p.unitKey], reason: "the task is not in the catalog" }));
    const out: PlannedRequest[] = [];
    for (let w = 0; w < plan.waves; w++) {
      const command = commandOf(plan, w);
      if (command) out.push({ orchestrator: "dbt", pipeline: plan.tasks.get(plan.pairs.find((p) => p.wave === w)!.taskNodeId)?.pipeline ?? "", wave: w, method: "RUN", path: command, body: null });
    }
    return { requests: out, unsupported };
  };
  return {
    kind: "dbt",
    blocksDownstream: false,
    requests,
    async preview(plan) {
      // dbt has no dry run Reparo can call: the commands are the preview.
      return { ...requests(plan), extra: [], missing: [], calls: [] };
    },
    async dispatchWave(plan, wave) {
      const handle: DbtHandle = { dispatchedAt: new Date().toISOString(), command: commandOf(plan, wave) ?? "" };
      return { handle: handle as unknown as Record<string, unknown>, calls: [] };
    },
    async poll(plan, wave, raw) {
      if (!outcomesSince) throw new Error("the dbt adapter reads progress only inside a repair run");
      const handle = raw as unknown as DbtHandle;
      const inWave = plan.pairs.filter((p) => p.wave === wave);
      const outcomes = await outcomesSince(inWave, new Date(handle.dispatchedAt));
      const pairs: PairProgress[] = inWave.map((p) => {
        const o = outcomes.get(compositeKey(p.taskNodeId, p.unitKey));
        return { taskNodeId: p.taskNodeId, unitKey: p.unitKey, status: o ?? "pending", detail: o ? `dbt reported ${o}` : "waiting for dbt to report it (the command is above)" };
      });
      return { pairs, calls: [] };
    },
    async cancel() {
      return { calls: [] };
    },
  };
}

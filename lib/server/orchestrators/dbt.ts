import { compositeKey } from "@/lib/domain/composite-key";
import { UNPARTITIONED_KEY } from "@/lib/domain/partitions";
import type { DbtConnection, PlannedRequest } from "@/lib/contracts/orchestrators";
import type { UnitOutcome } from "../repositories/units/unit-outcomes";
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
  /** `dbt retry …` when it does the whole repair in one go (see retryOf). */
  alternative?: string;
}

/** What the plan's `previous["dbt.retry"]` says of the failed invocation, still the pipeline's latest run (dispatch-groups.ts). */
export interface DbtRetrySource {
  /** dbt's invocation_id of the failed run. */
  invocation: string;
  /** Its failed and skipped (model, unit) pairs, as compositeKey(taskNodeId, unitKey). */
  pairs: readonly string[];
}

/**
 * dbt Core: Reparo cannot run dbt in the team's project, so a wave is the exact command for the
 * operator to run there — `dbt build --select <models> --vars '{reparo_units: {model: [units]}}'`
 * (the units only for partitioned models, read by the models as `var('reparo_units')`), with the
 * connection's project directory and target. Its progress is what the team's dbt reports back
 * to Reparo afterwards: dbt-ol events, or run_results.json imported (`npm run import:dbt`,
 * POST /api/v1/ingestion/dbt) — each pair done once the ledger has an attempt of its model for the
 * unit since the repair was launched (or a publish of what it builds). When the plan is exactly
 * what the failed invocation failed and skipped, `dbt retry` is offered beside the first wave's
 * command (PlannedRequest.alternative): one invocation that does every wave.
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
    const keys = Object.fromEntries(
      pairs
        .filter((p) => plan.idempotencyKeys[p.taskNodeId])
        .map((p) => [dbtSelectorOf(connection, plan.tasks.get(p.taskNodeId)!), plan.idempotencyKeys[p.taskNodeId]!]),
    );
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
  /**
   * `dbt retry` re-runs exactly the failed and skipped nodes of the last invocation, with that
   * invocation's own selection and vars (seed 000: the repair is a parameterised invocation of the
   * same job). It is offered only when it does exactly the plan: the plan's pairs are the failed
   * invocation's failed and skipped pairs, with no overrides or replay keys it could not carry.
   */
  const retryOf = (plan: DispatchPlan): { command: string } | null => {
    const source = plan.previous["dbt.retry"] as DbtRetrySource | undefined;
    if (!source || Object.keys(plan.parameterOverrides).length > 0 || Object.keys(plan.idempotencyKeys).length > 0) return null;
    const planned = new Set(plan.pairs.map((p) => compositeKey(p.taskNodeId, p.unitKey)));
    if (planned.size !== source.pairs.length || !source.pairs.every((k) => planned.has(k))) return null;
    const words = ["dbt", "retry"];
    if (connection.target) words.push("--target", shell(connection.target));
    if (connection.projectDir) words.push("--project-dir", shell(connection.projectDir));
    return { command: words.join(" ") };
  };
  const requests = (plan: DispatchPlan): RequestsResult => {
    const unsupported = plan.pairs
      .filter((p) => !plan.tasks.has(p.taskNodeId))
      .map((p) => ({ taskNodeId: p.taskNodeId, units: [p.unitKey], reason: "the task is not in the catalog" }));
    const out: PlannedRequest[] = [];
    const retry = retryOf(plan);
    for (let w = 0; w < plan.waves; w++) {
      const command = commandOf(plan, w);
      if (!command) continue;
      out.push({
        orchestrator: "dbt",
        pipeline: plan.tasks.get(plan.pairs.find((p) => p.wave === w)!.taskNodeId)?.pipeline ?? "",
        wave: w,
        method: "RUN",
        path: command,
        body: null,
        ...(retry && out.length === 0 ? { alternative: retry.command } : {}),
      });
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
      // `dbt retry` does every wave at once: it is offered with the first only.
      const retry = wave === 0 ? retryOf(plan) : null;
      const handle: DbtHandle = {
        dispatchedAt: new Date().toISOString(),
        command: commandOf(plan, wave) ?? "",
        ...(retry ? { alternative: retry.command } : {}),
      };
      return { handle: handle as unknown as Record<string, unknown>, calls: [] };
    },
    async poll(plan, wave, raw) {
      if (!outcomesSince) throw new Error("the dbt adapter reads progress only inside a repair run");
      const handle = raw as unknown as DbtHandle;
      const inWave = plan.pairs.filter((p) => p.wave === wave);
      // What dbt ran for the pair since the repair was launched is its progress: one `dbt retry` (or
      // a `dbt build` of several waves) may do later waves before they are handed out. dbt builds in
      // dependency order, and validation reads the input versions afterwards.
      const since = plan.launchedAt ?? new Date(handle.dispatchedAt);
      const outcomes = await outcomesSince(inWave, since);
      const pairs: PairProgress[] = inWave.map((p) => {
        const o = outcomes.get(compositeKey(p.taskNodeId, p.unitKey));
        return {
          taskNodeId: p.taskNodeId,
          unitKey: p.unitKey,
          status: o ?? "pending",
          detail: o ? `dbt reported ${o}` : "waiting for dbt to report it (the command is above)",
        };
      });
      return { pairs, calls: [] };
    },
    async cancel() {
      return { calls: [] };
    },
  };
}

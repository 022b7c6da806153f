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

/** What the plan's `previous["dbt.retry"]` says of the failed invocation, still the pipeline's latest run (dbt-retry-source.ts). */
export interface DbtRetrySource {
  /** dbt's invocation_id of the failed run. */
  invocation: string;
  /** Its failed and skipped (model, unit) pairs, as compositeKey(taskNodeId, unitKey). */
  pairs: readonly string[];
}

/** A unit's time window, when its model is partitioned by time. */
type WindowOf = DispatchPlan["windowOf"];

/**
 * The consecutive windows of a model's units, merged: 08-17, 08-18, 08-23 → [08-17, 08-19),
 * [08-23, 08-24). Null when a unit is not a time window (the model is not partitioned by time).
 */
export function eventTimeRanges(taskNodeId: string, units: readonly string[], windowOf: WindowOf): { start: Date; end: Date }[] | null {
  const windows = units.map((u) => windowOf(taskNodeId, u));
  if (windows.some((w) => w === null)) return null;
  const sorted = (windows as { start: Date; end: Date }[]).sort((a, b) => a.start.getTime() - b.start.getTime());
  const out: { start: Date; end: Date }[] = [];
  for (const w of sorted) {
    const last = out.at(-1);
    if (last && w.start.getTime() <= last.end.getTime()) last.end = new Date(Math.max(last.end.getTime(), w.end.getTime()));
    else out.push({ start: w.start, end: w.end });
  }
  return out;
}

/** dbt's --event-time-* value: the date at midnight UTC, else the UTC date and time. */
const eventTime = (d: Date) => (d.getTime() % 86_400_000 === 0 ? d.toISOString().slice(0, 10) : d.toISOString().slice(0, 19));

/**
 * dbt Core: Reparo cannot run dbt in the team's project, so a wave is the exact command (or
 * commands, joined with `&&`) for the operator to run there. A model partitioned by time is built
 * for its units' windows with dbt's own `--event-time-start/--event-time-end` — a microbatch model
 * builds exactly those batches — one invocation per range of consecutive units (dbt takes one range
 * per invocation; a range spanning a gap would rebuild the days between). Other models go in one
 * `dbt build --select <models>`, the units of other partitionings in `--vars '{reparo_units: {model:
 * [units]}}'` (read by the models as `var('reparo_units')`); an unpartitioned model is built whole.
 * The connection names the program (`dbt-ol` reports the repair back as OpenLineage events), its
 * flags, project directory and target. Its progress is what the team's dbt reports back to Reparo
 * afterwards: dbt-ol events, or run_results.json imported (`npm run import:dbt`, POST
 * /api/v1/ingestion/dbt) — each pair done once the ledger has an attempt of its model for the unit
 * since the repair was launched (or a publish of what it builds). When the plan is exactly what the
 * failed invocation failed and skipped, `dbt retry` is offered beside the first wave's command
 * (PlannedRequest.alternative): one invocation that does every wave.
 */
export function dbtOrchestrator(connection: DbtConnection, outcomesSince: OutcomesSince | null): Orchestrator {
  const invocation = (command: string) => [connection.executable ?? "dbt", command, ...(connection.flags ?? [])];
  const where = () => [
    ...(connection.target ? ["--target", shell(connection.target)] : []),
    ...(connection.projectDir ? ["--project-dir", shell(connection.projectDir)] : []),
  ];
  const commandsOf = (plan: DispatchPlan, wave: number): string[] => {
    const pairs = plan.pairs.filter((p) => p.wave === wave);
    if (pairs.length === 0) return [];
    const byModel = new Map<string, { taskNodeId: string; units: string[] }>();
    for (const p of pairs) {
      const model = dbtSelectorOf(connection, plan.tasks.get(p.taskNodeId)!);
      const entry = byModel.get(model) ?? { taskNodeId: p.taskNodeId, units: [] };
      entry.units.push(p.unitKey);
      byModel.set(model, entry);
    }
    // A side-effecting model replayed on purpose gets its idempotency key (var reparo_idempotency_keys).
    const keyOf = (model: string) => plan.idempotencyKeys[byModel.get(model)!.taskNodeId];
    const varsOf = (models: string[], units: Record<string, string[]>) => {
      const keys = Object.fromEntries(models.filter((m) => keyOf(m)).map((m) => [m, keyOf(m)!]));
      const vars = {
        ...plan.parameterOverrides,
        ...(Object.keys(units).length > 0 ? { [connection.unitsVar]: units } : {}),
        ...(Object.keys(keys).length > 0 ? { reparo_idempotency_keys: keys } : {}),
      };
      return Object.keys(vars).length > 0 ? ["--vars", shell(JSON.stringify(vars))] : [];
    };
    const rest: string[] = [];
    const restUnits: Record<string, string[]> = {};
    const ranges = new Map<string, { start: Date; end: Date; models: string[] }>();
    for (const [model, { taskNodeId, units }] of byModel) {
      const timed = units.some((k) => !WHOLE.has(k)) ? eventTimeRanges(taskNodeId, units, plan.windowOf) : null;
      if (!timed) {
        rest.push(model);
        if (units.some((k) => !WHOLE.has(k))) restUnits[model] = units;
        continue;
      }
      for (const r of timed) {
        const key = compositeKey(r.start.toISOString(), r.end.toISOString());
        ranges.set(key, { ...r, models: [...(ranges.get(key)?.models ?? []), model] });
      }
    }
    const build = (models: string[], extra: string[]) => [...invocation("build"), "--select", ...models.map(shell), ...extra, ...where()].join(" ");
    return [
      ...(rest.length > 0 ? [build(rest, varsOf(rest, restUnits))] : []),
      ...[...ranges.values()]
        .sort((a, b) => a.start.getTime() - b.start.getTime())
        .map((r) => build(r.models, ["--event-time-start", eventTime(r.start), "--event-time-end", eventTime(r.end), ...varsOf(r.models, {})])),
    ];
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
    return { command: [...invocation("retry"), ...where()].join(" ") };
  };
  const requests = (plan: DispatchPlan): RequestsResult => {
    const unsupported = plan.pairs
      .filter((p) => !plan.tasks.has(p.taskNodeId))
      .map((p) => ({ taskNodeId: p.taskNodeId, units: [p.unitKey], reason: "the task is not in the catalog" }));
    const out: PlannedRequest[] = [];
    const retry = retryOf(plan);
    for (let w = 0; w < plan.waves; w++) {
      for (const command of commandsOf(plan, w)) {
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
        // The wave's invocations as one shell line: each runs only if the one before succeeded.
        command: commandsOf(plan, wave).join(" && "),
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

/**
 * When a confirmed repair plan should be done, from how long its tasks took before (issue "Who
 * must know": "an ETA from the plan's cost"). The plan's cost is in units; each task's recent
 * successful attempts say what a unit of it costs in time.
 *
 * The rule: a wave starts when the one before it ended (the planner's order), and its pairs run
 * `concurrency` at a time (the launch's default, 4). A pair lasts the median of its task's recent
 * successful attempts; a task with none lasts the median of every known attempt, and the basis
 * says how many tasks were estimated so. No attempt known anywhere: no ETA — never a guess.
 * Pairs are laid on the lanes longest first, each on the lane that frees first (LPT), so a wave
 * lasts its busiest lane.
 *
 * Example: wave 1 stg_orders × 3 units at 40 s, wave 2 fct_orders × 3 at 20 s and revenue_daily
 * × 1 at 90 s, concurrency 4, from 10:00:00 → wave 1 40 s (three lanes), wave 2 90 s
 * (revenue_daily's lane; the three fct_orders share the others) → ETA 10:02:10, "from the median
 * of 24 attempts of 3 tasks".
 */

export interface EtaWaveTask {
  readonly taskNodeId: string;
  readonly unitCount: number;
}

export interface PlanEtaInput {
  readonly waves: readonly (readonly EtaWaveTask[])[];
  /** Each task's recent successful attempts, in ms. */
  readonly durationsMs: ReadonlyMap<string, readonly number[]>;
  readonly concurrency: number;
  /** When the plan starts (or started). */
  readonly from: Date;
}

export interface PlanEta {
  readonly at: Date | null;
  readonly durationMs: number | null;
  /** How it was estimated, in words ("from the median of 24 attempts of 3 tasks; 1 task never ran: estimated from the others"). */
  readonly basis: string;
}

export function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** The wave's length with its pairs laid on `lanes` lanes, longest first, each on the lane that frees first. */
function waveMs(pairs: number[], lanes: number): number {
  const load = new Array<number>(Math.max(1, Math.min(lanes, pairs.length))).fill(0);
  for (const d of pairs.sort((a, b) => b - a)) {
    let i = 0;
    for (let j = 1; j < load.length; j++) if (load[j]! < load[i]!) i = j;
    load[i]! += d;
  }
  return Math.max(0, ...load);
}

export function planEta(input: PlanEtaInput): PlanEta {
  const tasks = new Set(input.waves.flatMap((w) => w.map((t) => t.taskNodeId)));
  const known = [...tasks].filter((t) => (input.durationsMs.get(t)?.length ?? 0) > 0);
  const all = known.flatMap((t) => input.durationsMs.get(t)!);
  if (all.length === 0) return { at: null, durationMs: null, basis: "no attempt of its tasks has a recorded duration" };
  const fallback = median(all);
  const per = new Map(known.map((t) => [t, median(input.durationsMs.get(t)!)]));
  let total = 0;
  for (const wave of input.waves) {
    const pairs = wave.flatMap((t) => new Array<number>(Math.max(0, t.unitCount)).fill(per.get(t.taskNodeId) ?? fallback));
    if (pairs.length > 0) total += waveMs(pairs, input.concurrency);
  }
  const unknown = tasks.size - known.length;
  const basis =
    `from the median of ${all.length} attempt${all.length === 1 ? "" : "s"} of ${known.length} task${known.length === 1 ? "" : "s"}` +
    (unknown > 0 ? `; ${unknown} task${unknown === 1 ? "" : "s"} never ran: estimated from the others` : "");
  return { at: new Date(input.from.getTime() + Math.round(total)), durationMs: Math.round(total), basis };
}

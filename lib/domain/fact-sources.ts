/**
 * Where a fact about a task or a dataset came from, best first. A fact Reparo holds is the one
 * its best source gave: a person's declaration (the API, the wizard, the team's declaration
 * file) outranks dbt's manifest, which outranks Airflow's OpenLineage facets, which outrank the
 * generic OpenLineage facets, which outrank what Reparo inferred from history. A source never
 * overwrites a better one's answer, and may correct its own. Nobody said: unknown — a value,
 * never a default (an unknown write mode is not "append", an unknown side effect not "none").
 *
 * Example: dbt's manifest says stg_orders is `incremental` with the append strategy (append,
 * from dbt); the team later declares it `replace` in its declaration file (replace, declared);
 * a later manifest saying append again changes nothing.
 */
import type { WriteMode } from "./unit-facts";

export const FACT_SOURCES = ["declared", "dbt", "airflow", "openlineage", "history"] as const;
export type FactSource = (typeof FACT_SOURCES)[number];

/** The facts whose provenance is kept, per task. */
export const TASK_FACTS = ["writeMode", "sideEffect", "dependsOnOwnPast", "publishMode", "owner"] as const;
export type TaskFact = (typeof TASK_FACTS)[number];
export type FactSourcesOf = Partial<Record<TaskFact, FactSource>>;
/** The facts' values; null or absent: not given. */
export interface TaskFactValues {
  writeMode?: WriteMode | null;
  sideEffect?: "none" | "external" | null;
  dependsOnOwnPast?: boolean | null;
  publishMode?: "per_unit" | "atomic_set" | null;
  owner?: string | null;
}

const RANK: Readonly<Record<FactSource, number>> = Object.fromEntries(FACT_SOURCES.map((s, i) => [s, i])) as Record<FactSource, number>;

/** Whether `incoming` may set a fact that `current` gave (null: nobody gave it yet). */
export function mayReplace(current: FactSource | null | undefined, incoming: FactSource): boolean {
  return current == null || RANK[incoming] <= RANK[current];
}

/** How the console names a source beside the fact. */
export const FACT_SOURCE_LABELS: Readonly<Record<FactSource, string>> = {
  declared: "declared",
  dbt: "dbt manifest",
  airflow: "Airflow (OpenLineage facet)",
  openlineage: "OpenLineage facet",
  history: "inferred from history",
};

export function isFactSource(v: unknown): v is FactSource {
  return typeof v === "string" && (FACT_SOURCES as readonly string[]).includes(v);
}

/**
 * The facts one source gives, applied over what is held: each fact the source may set (by
 * precedence) replaces the held value and records its source; the rest are left alone. Answers
 * what changed, so the caller writes (and audits) only that.
 *
 * Example: held {writeMode: append (dbt)}, incoming {writeMode: replace, owner: "ana"} from
 * airflow → only owner changes (airflow ranks below dbt for the write mode it already gave).
 */
export function applyFacts(
  held: TaskFactValues,
  sources: FactSourcesOf,
  incoming: TaskFactValues,
  source: FactSource,
): { values: TaskFactValues; sources: FactSourcesOf } | null {
  const values: Record<string, unknown> = {};
  const nextSources: FactSourcesOf = { ...sources };
  let changed = false;
  for (const fact of TASK_FACTS) {
    const value = incoming[fact];
    if (value === undefined || value === null || !mayReplace(sources[fact], source)) continue;
    if (held[fact] === value && sources[fact] === source) continue;
    values[fact] = value;
    nextSources[fact] = source;
    changed = true;
  }
  return changed ? { values: values as TaskFactValues, sources: nextSources } : null;
}

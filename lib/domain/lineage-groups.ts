/**
 * Which pipeline a dataset is drawn in when nobody declared one. A task's pipeline is its root
 * job (the OpenLineage parent job facet: dbt-ol's command job, the Airflow DAG); a dataset seldom
 * has one, and grouping it by its namespace (`postgres://localhost:5432`) drew an imported dbt
 * project as one box of datasets beside one box of tasks, every edge crossing between the two.
 * A dataset belongs with the job that writes it: with its writers' pipeline (the one most of
 * them are in; ties by name), else — a source nobody in the catalog writes — with its readers'
 * pipeline when they are all in one, else with its namespace as before. A declared pipeline wins.
 */
export interface GroupingInput {
  readonly tasks: readonly { readonly id: string; readonly pipeline: string }[];
  readonly datasets: readonly { readonly id: string; readonly pipeline: string | null; readonly namespace: string }[];
  readonly reads: readonly { readonly task: string; readonly dataset: string }[];
  readonly writes: readonly { readonly task: string; readonly dataset: string }[];
}

/** Every dataset's pipeline, by dataset id. */
export function datasetPipelines(input: GroupingInput): Map<string, string> {
  const pipelineOf = new Map(input.tasks.map((t) => [t.id, t.pipeline]));
  const tally = (edges: GroupingInput["reads"]) => {
    const out = new Map<string, Map<string, number>>();
    for (const e of edges) {
      const p = pipelineOf.get(e.task);
      if (p === undefined) continue;
      const counts = out.get(e.dataset) ?? new Map<string, number>();
      counts.set(p, (counts.get(p) ?? 0) + 1);
      out.set(e.dataset, counts);
    }
    return out;
  };
  const writers = tally(input.writes);
  const readers = tally(input.reads);
  const result = new Map<string, string>();
  for (const d of input.datasets) {
    const written = writers.get(d.id);
    const read = readers.get(d.id);
    result.set(d.id, d.pipeline ?? (written ? mostCommon(written) : read?.size === 1 ? [...read.keys()][0]! : d.namespace));
  }
  return result;
}

function mostCommon(counts: Map<string, number>): string {
  return [...counts].sort(([a, x], [b, y]) => y - x || a.localeCompare(b))[0]![0];
}

import type { FoldedRun, RunRef } from "./fold-run-events";
import { runRowIdOf } from "./stable-id";

export type PipelineRef = { ref: { namespace: string; name: string } } | { id: string } | null;

export interface RunLinks {
  parentRunId: string | null;
  rootRunId: string | null;
  /** The pipeline is the root job (an Airflow DAG, a dbt command, a Spark application). */
  pipeline: PipelineRef;
}

export interface StoredRunLink {
  rootRunId: string | null;
  pipelineId: string | null;
}

const keyOf = (r: RunRef) => runRowIdOf(r);
const refOf = (r: RunRef): PipelineRef => ({ ref: { namespace: r.namespace, name: r.name } });

/**
 * Parent and root run ids, and the pipeline, of each run. The parent facet's `root` wins when
 * sent (OpenLineage 2.x); otherwise the chain of parents is walked through this batch and then
 * through stored runs, so a dbt query job three levels down still links to the dbt command.
 * A parentless run is a pipeline root only when another run names it as parent or root.
 */
export function linkRuns(runs: FoldedRun[], stored: Map<string, StoredRunLink>): Map<string, RunLinks> {
  const byId = new Map(runs.map((r) => [keyOf(r), r]));
  const referenced = new Set<string>();
  for (const r of runs) {
    if (r.parent) referenced.add(keyOf(r.parent));
    if (r.root) referenced.add(keyOf(r.root));
  }
  const memo = new Map<string, Omit<RunLinks, "parentRunId">>();
  const linkOf = (run: FoldedRun, depth: number): Omit<RunLinks, "parentRunId"> => {
    const id = keyOf(run);
    const known = memo.get(id);
    if (known) return known;
    let link: Omit<RunLinks, "parentRunId">;
    if (run.root) link = { rootRunId: keyOf(run.root), pipeline: refOf(run.root) };
    else if (!run.parent || depth > 32) link = { rootRunId: null, pipeline: referenced.has(id) ? refOf(run) : null };
    else {
      const parent = byId.get(keyOf(run.parent));
      if (parent) {
        const up = linkOf(parent, depth + 1);
        link = { rootRunId: up.rootRunId ?? keyOf(parent), pipeline: up.pipeline ?? refOf(parent) };
      } else {
        const s = stored.get(keyOf(run.parent));
        link = { rootRunId: s?.rootRunId ?? keyOf(run.parent), pipeline: s?.pipelineId ? { id: s.pipelineId } : refOf(run.parent) };
      }
    }
    memo.set(id, link);
    return link;
  };
  return new Map(runs.map((r) => [keyOf(r), { parentRunId: r.parent ? keyOf(r.parent) : null, ...linkOf(r, 0) }]));
}

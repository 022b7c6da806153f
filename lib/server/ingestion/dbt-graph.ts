import type { DbtManifest, DbtNode } from "@/lib/contracts/ingestion-dbt";
import type { NodeRef } from "../repositories/lineage/catalog-writes";
import { datasetRefOf, taskRefOf } from "./dbt-naming";

export type WriteMode = "replace" | "merge" | "append";

export interface DbtTaskPlan {
  uniqueId: string;
  resourceType: string;
  task: NodeRef;
  /**
   * The relation the node builds; null for a test, which is a check on what it reads (its
   * failures are data alerts on those datasets), not a dataset anyone completes.
   */
  output: NodeRef | null;
  inputs: NodeRef[];
  writeMode: WriteMode | null;
  /** Its owner in the manifest (dbtOwnerOf); null when the project names none. */
  owner: string | null;
}

export interface DbtGraph {
  project: string;
  adapter: string;
  manifestVersion: number;
  tasks: DbtTaskPlan[];
  sources: NodeRef[];
  nodeCounts: Record<string, number>;
  ignored: Record<string, number>;
  dependencies: number;
  dangling: string[];
  /** Parents of every manifest id (depends_on, parent_map and child_map together). */
  parentsOf: Map<string, Set<string>>;
}

const TASK_TYPES = new Set(["model", "seed", "snapshot", "test"]);
// Sections whose ids may appear in parent_map/child_map without being nodes or sources.
const OTHER_SECTIONS = ["exposures", "metrics", "semantic_models", "saved_queries", "unit_tests", "groups"];

/**
 * The task/dataset graph a dbt manifest implies, named the way dbt-ol names it. Dependencies are
 * the union of depends_on.nodes, parent_map and child_map (old manifests lack the maps; trimmed
 * ones hold only part of them). Ids the maps name but the manifest does not hold are `dangling`:
 * reported, never fatal.
 */
export function buildDbtGraph(manifest: DbtManifest, namespace: string, datasetNamespace: string): DbtGraph {
  const sources = manifest.sources ?? {};
  const known = new Set([
    ...Object.keys(manifest.nodes),
    ...Object.keys(sources),
    ...OTHER_SECTIONS.flatMap((s) => Object.keys((manifest as Record<string, unknown>)[s] ?? {})),
  ]);
  const parentsOf = collectParents(manifest);
  const dangling = new Set<string>();
  for (const [child, parents] of parentsOf) for (const id of [child, ...parents]) if (!known.has(id)) dangling.add(id);
  const datasetOf = new Map<string, NodeRef>(Object.entries(sources).map(([id, s]) => [id, datasetRefOf(datasetNamespace, s)]));
  const taskNodes = Object.values(manifest.nodes).filter((n) => TASK_TYPES.has(n.resource_type));
  for (const n of taskNodes) if (n.resource_type !== "test") datasetOf.set(n.unique_id, datasetRefOf(datasetNamespace, n));
  let dependencies = 0;
  const tasks = taskNodes.map((n): DbtTaskPlan => {
    const inputs = [...(parentsOf.get(n.unique_id) ?? [])].flatMap((p) => (datasetOf.has(p) && p !== n.unique_id ? [datasetOf.get(p)!] : []));
    dependencies += inputs.length;
    const output = n.resource_type === "test" ? null : datasetOf.get(n.unique_id)!;
    return {
      uniqueId: n.unique_id,
      resourceType: n.resource_type,
      task: taskRefOf(namespace, n.unique_id),
      output,
      inputs,
      writeMode: output ? writeModeOf(n) : null,
      owner: dbtOwnerOf(n, manifest.groups),
    };
  });
  return {
    project: manifest.metadata.project_name ?? Object.keys(manifest.nodes)[0]?.split(".")[1] ?? "dbt",
    adapter: manifest.metadata.adapter_type ?? "unknown",
    manifestVersion: Number(/\/v(\d+)\.json$/.exec(manifest.metadata.dbt_schema_version)![1]),
    tasks,
    sources: Object.values(sources).map((s) => datasetOf.get(s.unique_id)!),
    nodeCounts: countBy([...Object.values(manifest.nodes).map((n) => n.resource_type), ...Object.keys(sources).map(() => "source")]),
    ignored: countBy(
      Object.values(manifest.nodes)
        .filter((n) => !TASK_TYPES.has(n.resource_type))
        .map((n) => n.resource_type),
    ),
    dependencies,
    dangling: [...dangling].sort(),
    parentsOf,
  };
}

function collectParents(manifest: DbtManifest): Map<string, Set<string>> {
  const parents = new Map<string, Set<string>>();
  const add = (child: string, parent: string) => parents.set(child, (parents.get(child) ?? new Set()).add(parent));
  for (const n of Object.values(manifest.nodes)) for (const p of n.depends_on?.nodes ?? []) add(n.unique_id, p);
  for (const [child, ps] of Object.entries(manifest.parent_map ?? {})) {
    if (!parents.has(child)) parents.set(child, new Set());
    for (const p of ps) add(child, p);
  }
  for (const [parent, cs] of Object.entries(manifest.child_map ?? {})) {
    if (!parents.has(parent)) parents.set(parent, new Set());
    for (const c of cs) add(c, parent);
  }
  return parents;
}

/**
 * What a rebuild of the node does to its relation. Tables, views and seeds are replaced; a
 * snapshot merges. An incremental model by its strategy: `append` appends; `insert_overwrite`
 * and `microbatch` replace the partitions (batches) they rebuild; `merge` and `delete+insert`
 * replace or update the rows of their unique key — a second run of a unit leaves one copy
 * (merge); without a strategy, dbt's default: merge on a unique key, else append.
 */
/**
 * A node's owner as the dbt project says it: `meta.owner` (in the node's config, as dbt 1.x
 * gathers it, or on the node), else the owner of its `group` (`groups:` with `owner: {name, email}`).
 * dbt-ol's events carry neither (no `ownership` facet), so the manifest import is where dbt's owners come in.
 */
export function dbtOwnerOf(n: DbtNode, groupsOfManifest: unknown): string | null {
  const text = (v: unknown) => (typeof v === "string" && v.trim() !== "" ? v.trim().slice(0, 200) : null);
  const meta = (m: unknown) => (m && typeof m === "object" ? text((m as Record<string, unknown>).owner) : null);
  const own = meta(n.config?.meta) ?? meta((n as Record<string, unknown>).meta);
  if (own) return own;
  const group = text((n as Record<string, unknown>).group);
  const groups = groupsOfManifest && typeof groupsOfManifest === "object" ? (groupsOfManifest as Record<string, unknown>) : {};
  const entry = Object.values(groups).find((g) => g && typeof g === "object" && (g as Record<string, unknown>).name === group) as
    Record<string, unknown> | undefined;
  const owner = group && entry?.owner && typeof entry.owner === "object" ? (entry.owner as Record<string, unknown>) : null;
  return owner ? (text(owner.name) ?? text(owner.email)) : null;
}

function writeModeOf(n: DbtNode): WriteMode | null {
  const m = n.config?.materialized ?? (n.resource_type === "seed" ? "seed" : null);
  if (n.resource_type === "snapshot" || m === "snapshot") return "merge";
  if (m === "incremental") {
    const strategy = n.config?.incremental_strategy?.toLowerCase() ?? null;
    if (strategy === "append") return "append";
    if (strategy === "insert_overwrite" || strategy === "microbatch") return "replace";
    if (strategy === "merge" || strategy === "delete+insert") return n.config?.unique_key ? "merge" : "append";
    return n.config?.unique_key ? "merge" : "append";
  }
  if (m === "table" || m === "view" || m === "seed" || m === "materialized_view") return "replace";
  return null;
}

function countBy(values: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of values) out[v] = (out[v] ?? 0) + 1;
  return out;
}

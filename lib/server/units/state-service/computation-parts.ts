import type { DatasetRecord, EdgeRecord } from "../../repositories/lineage/catalog-reads";

/**
 * The datasets split into at most `parts` groups that can be computed apart: a dataset's state
 * depends only on the datasets its writer reads (staleness, suspect), so datasets no task links
 * — directly or through others — never need each other's results. Each group is a union of whole
 * connected components of the lineage (tasks joining what they read and write), balanced by
 * units (`weight`, the largest first into the lightest group). Fewer groups when there are fewer
 * components; empty groups are dropped.
 */
export function computationParts(
  datasets: readonly DatasetRecord[],
  edges: readonly EdgeRecord[],
  parts: number,
  weight: (d: DatasetRecord) => number,
): DatasetRecord[][] {
  const parent = new Map<string, string>(datasets.map((d) => [d.id, d.id]));
  const find = (id: string): string => {
    let root = id;
    while (parent.get(root) !== root) root = parent.get(root)!;
    for (let at = id; at !== root;) {
      const next = parent.get(at)!;
      parent.set(at, root);
      at = next;
    }
    return root;
  };
  const byTask = new Map<string, string>();
  for (const e of edges) {
    if (!parent.has(e.datasetId)) continue;
    const first = byTask.get(e.taskId);
    if (first === undefined) byTask.set(e.taskId, e.datasetId);
    else parent.set(find(e.datasetId), find(first));
  }
  const components = new Map<string, { datasets: DatasetRecord[]; weight: number }>();
  for (const d of datasets) {
    const root = find(d.id);
    const c = components.get(root) ?? { datasets: [], weight: 0 };
    c.datasets.push(d);
    c.weight += weight(d);
    components.set(root, c);
  }
  const groups = Array.from({ length: Math.max(1, Math.min(parts, components.size)) }, () => ({ datasets: [] as DatasetRecord[], weight: 0 }));
  for (const c of [...components.values()].sort((a, b) => b.weight - a.weight)) {
    const lightest = groups.reduce((min, g) => (g.weight < min.weight ? g : min));
    lightest.datasets.push(...c.datasets);
    lightest.weight += c.weight;
  }
  return groups.filter((g) => g.datasets.length > 0).map((g) => g.datasets);
}

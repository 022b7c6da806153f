/** Units picked for a repair: always of one dataset, since a repair plan is per task. */
export interface Selection {
  dataset: string;
  writerNodeId: string | null;
  keys: string[];
}

export function toggleKeys(current: Selection | null, dataset: string, writerNodeId: string | null, keys: string[]): Selection | null {
  if (!current || current.dataset !== dataset) return { dataset, writerNodeId, keys };
  const set = new Set(current.keys);
  const allIn = keys.every((k) => set.has(k));
  for (const k of keys) {
    if (allIn) set.delete(k);
    else set.add(k);
  }
  return set.size === 0 ? null : { ...current, keys: [...set].sort() };
}

export function repairHref(s: Selection): string | null {
  if (!s.writerNodeId) return null;
  return `/incidents/new?${new URLSearchParams({ node: s.writerNodeId, units: s.keys.join(",") })}`;
}

export function lineageHref(nodeId: string, unitKey: string): string {
  return `/lineage?${new URLSearchParams({ node: nodeId, units: unitKey })}`;
}

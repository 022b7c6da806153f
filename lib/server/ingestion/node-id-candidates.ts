import { formatNodeId, parseNodeId } from "@/lib/domain/ids";

/**
 * The node ids a path segment `{id}` can mean: a node id (`dataset:<ns>:<name>`), or
 * `<namespace>/<name>` — split at every `/`, because namespaces (`postgres://db:5432`) and names
 * (`/tmp/out`) both hold slashes; the caller keeps the split that names an existing node and
 * refuses an ambiguous one. The row id is tried too.
 */
export function nodeIdCandidates(kind: "job" | "dataset", id: string): string[] {
  const parsed = parseNodeId(id);
  if (parsed?.kind === kind) return [formatNodeId(kind, parsed.namespace, parsed.name)];
  const out: string[] = [];
  for (let i = id.indexOf("/"); i >= 0; i = id.indexOf("/", i + 1)) {
    const namespace = id.slice(0, i);
    const name = id.slice(i + 1);
    if (namespace !== "" && name !== "") out.push(formatNodeId(kind, namespace, name));
  }
  return out;
}

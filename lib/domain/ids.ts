/**
 * Node identifiers in Marquez's convention, so ids coming from OpenLineage events and
 * ids shown in the console are the same strings: `job:<namespace>:<name>` for a task and
 * `dataset:<namespace>:<name>` for a dataset.
 *
 * Why brands: a task id and a dataset id are both strings, and mixing them up silently
 * (asking the planner to "repair" a dataset) is exactly the kind of bug the compiler can
 * catch for free.
 *
 * Namespaces are often URIs with colons of their own (`postgres://db:5432`), so the name is
 * everything after the LAST colon and a colon inside a name is percent-encoded:
 *   formatNodeId('dataset', 'postgres://db:5432', 'public.orders')
 *     === 'dataset:postgres://db:5432:public.orders'
 */
declare const brand: unique symbol;
type Brand<T, B extends string> = T & { readonly [brand]: B };

export type TaskId = Brand<string, "TaskId">;
export type DatasetId = Brand<string, "DatasetId">;
export type NodeId = TaskId | DatasetId;
/** A partition key as the orchestrator spells it: `2026-08-17`, `2026-W34`, `tenant=42/2026-08-17`. */
export type UnitKey = string;

export type NodeKind = "job" | "dataset";

export interface ParsedNodeId {
  readonly kind: NodeKind;
  readonly namespace: string;
  readonly name: string;
}

function encodeName(name: string): string {
  return name.replace(/%/g, "%25").replace(/:/g, "%3A");
}

function decodeName(name: string): string {
  return name.replace(/%3A/gi, ":").replace(/%25/g, "%");
}

export function formatNodeId(kind: "job", namespace: string, name: string): TaskId;
export function formatNodeId(kind: "dataset", namespace: string, name: string): DatasetId;
export function formatNodeId(kind: NodeKind, namespace: string, name: string): NodeId;
export function formatNodeId(kind: NodeKind, namespace: string, name: string): NodeId {
  if (namespace.length === 0 || name.length === 0) {
    throw new Error(`node id needs a namespace and a name (got "${namespace}", "${name}")`);
  }
  return `${kind}:${namespace}:${encodeName(name)}` as NodeId;
}

export const taskId = (namespace: string, name: string): TaskId => formatNodeId("job", namespace, name);
export const datasetId = (namespace: string, name: string): DatasetId =>
  formatNodeId("dataset", namespace, name);

/** Parses `job:ns:name` / `dataset:ns:name`; returns null for anything else (never throws). */
export function parseNodeId(id: string): ParsedNodeId | null {
  const first = id.indexOf(":");
  const last = id.lastIndexOf(":");
  if (first <= 0 || last <= first + 1 || last === id.length - 1) return null;
  const kind = id.slice(0, first);
  if (kind !== "job" && kind !== "dataset") return null;
  return { kind, namespace: id.slice(first + 1, last), name: decodeName(id.slice(last + 1)) };
}

export function isTaskId(id: string): id is TaskId {
  return parseNodeId(id)?.kind === "job";
}

export function isDatasetId(id: string): id is DatasetId {
  return parseNodeId(id)?.kind === "dataset";
}

/** The short name shown in tables and exported to orchestrators (`stg_orders`). */
export function nodeName(id: NodeId): string {
  const parsed = parseNodeId(id);
  if (!parsed) throw new Error(`not a node id: ${id}`);
  return parsed.name;
}

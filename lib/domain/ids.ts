/**
 * Node identifiers in Marquez's convention, so ids coming from OpenLineage events, ids shown in
 * the console and ids Marquez itself would give are the same strings: the raw namespace and
 * name joined, `job:<namespace>:<name>` for a task and `dataset:<namespace>:<name>` for a dataset.
 *
 * Why brands: a task id and a dataset id are both strings, and mixing them up silently
 * (asking the planner to "repair" a dataset) is exactly the kind of bug the compiler can
 * catch for free.
 *
 * Colons. Namespaces are often URIs with colons of their own (`postgres://db:5432`) and names
 * can hold them too (`my_struct<a:bigint>`), so an id is parsed as Marquez's NodeId parses it:
 * split on ":" when that gives exactly three parts; otherwise the delimiters are the first two
 * colons not followed by "//" or a digit, and the name is everything after the second:
 *   formatNodeId('dataset', 'postgres://db:5432', 'public.orders')
 *     === 'dataset:postgres://db:5432:public.orders'   → namespace postgres://db:5432
 *   'dataset:my-namespace:my_struct<a:bigint,b:string>' → name my_struct<a:bigint,b:string>
 * As in Marquez, a namespace holding a colon followed by a letter (`a:b`) cannot be told apart
 * from its name in the id; Reparo keeps namespace and name as separate columns, so only a
 * caller's id string is ever parsed, and two pairs that join to one string are one node.
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

export function formatNodeId(kind: "job", namespace: string, name: string): TaskId;
export function formatNodeId(kind: "dataset", namespace: string, name: string): DatasetId;
export function formatNodeId(kind: NodeKind, namespace: string, name: string): NodeId;
export function formatNodeId(kind: NodeKind, namespace: string, name: string): NodeId {
  if (namespace.length === 0 || name.length === 0) {
    throw new Error(`node id needs a namespace and a name (got "${namespace}", "${name}")`);
  }
  return `${kind}:${namespace}:${name}` as NodeId;
}

export const taskId = (namespace: string, name: string): TaskId => formatNodeId("job", namespace, name);
export const datasetId = (namespace: string, name: string): DatasetId => formatNodeId("dataset", namespace, name);

/** Parses `job:ns:name` / `dataset:ns:name` as Marquez does; returns null for anything else (never throws). */
export function parseNodeId(id: string): ParsedNodeId | null {
  const first = id.indexOf(":");
  if (first <= 0) return null;
  const kind = id.slice(0, first);
  if (kind !== "job" && kind !== "dataset") return null;
  const parts = id.split(":");
  let namespace: string;
  let name: string;
  if (parts.length === 3) [namespace, name] = [parts[1]!, parts[2]!];
  else {
    const rest = id.slice(first + 1);
    const delimiter = /:(?!\/\/|\d)/.exec(rest);
    if (!delimiter) return null;
    [namespace, name] = [rest.slice(0, delimiter.index), rest.slice(delimiter.index + 1)];
  }
  if (namespace.length === 0 || name.length === 0) return null;
  return { kind, namespace, name };
}

export function isTaskId(id: string): id is TaskId {
  return parseNodeId(id)?.kind === "job";
}

export function isDatasetId(id: string): id is DatasetId {
  return parseNodeId(id)?.kind === "dataset";
}

/** The short name shown in tables and exported to orchestrators (`stg_orders`); the id itself when it is not a node id. */
export function nodeName(id: string): string {
  return parseNodeId(id)?.name ?? id;
}

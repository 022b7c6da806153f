import type { Db } from "../db/client";

/** A unit an incident names among its failed pairs: a key, or an inclusive key range. */
export type NamedUnits = { nodeId: string; keys: string[]; ranges: [string, string][] };

export interface IncidentRef {
  id: string;
  title: string;
  status: string;
  detectedAt: Date;
  resolvedAt: Date | null;
  failedPairs: NamedUnits[];
}

const CLOSED = ["resolved", "abandoned"];

/**
 * Incidents still being handled, with their failed pairs parsed. `failedPairs` is JSON
 * [{ nodeId, units }], where units may be keys, [from, to] ranges or { from, to } objects:
 * every shape the guided repair may store is read, and anything else is ignored, not fatal.
 */
export async function listOpenIncidents(db: Db): Promise<IncidentRef[]> {
  const rows = await db.incident.findMany({
    where: { status: { notIn: CLOSED } },
    select: { id: true, title: true, status: true, detectedAt: true, resolvedAt: true, failedPairs: true },
    orderBy: { detectedAt: "desc" },
  });
  return rows.map((r) => ({ ...r, failedPairs: parseFailedPairs(r.failedPairs) }));
}

/** Each named incident's title and current status (the audit list shows where each entry's incident stands now). */
export async function incidentStatusesOf(db: Db, ids: readonly string[]): Promise<Map<string, { title: string; status: string }>> {
  if (ids.length === 0) return new Map();
  const rows = await db.incident.findMany({ where: { id: { in: [...new Set(ids)] } }, select: { id: true, title: true, status: true } });
  return new Map(rows.map((r) => [r.id, { title: r.title, status: r.status }]));
}

export function parseFailedPairs(json: string): NamedUnits[] {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return [];
  }
  if (!Array.isArray(value)) return [];
  return value.flatMap((p: unknown) => {
    if (typeof p !== "object" || p === null) return [];
    const { nodeId, units, unitKey } = p as { nodeId?: unknown; units?: unknown; unitKey?: unknown };
    if (typeof nodeId !== "string") return [];
    const named: NamedUnits = { nodeId, keys: [], ranges: [] };
    if (typeof unitKey === "string") named.keys.push(unitKey);
    for (const u of Array.isArray(units) ? units : []) addUnit(named, u);
    return [named];
  });
}

function addUnit(named: NamedUnits, u: unknown): void {
  if (typeof u === "string") named.keys.push(u);
  else if (Array.isArray(u) && typeof u[0] === "string" && typeof u[1] === "string") named.ranges.push([u[0], u[1]]);
  else if (typeof u === "object" && u !== null) {
    const { from, to } = u as { from?: unknown; to?: unknown };
    if (typeof from === "string" && typeof to === "string") named.ranges.push([from, to]);
  }
}

/** Whether the pair names (node, key); time keys of one definition order as strings. */
export function namesUnit(pairs: NamedUnits[], nodeIds: readonly string[], key: string): boolean {
  return pairs.some((p) => nodeIds.includes(p.nodeId) && (p.keys.includes(key) || p.ranges.some(([lo, hi]) => lo <= key && key <= hi)));
}

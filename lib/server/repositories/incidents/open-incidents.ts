import type { AuditTarget } from "@/lib/contracts/audit";
import type { Db } from "../database";
import { parseFailedPairs } from "./incidents";
import { prismaOf } from "../prisma-handle";

export interface IncidentRef {
  id: string;
  title: string;
  status: string;
  detectedAt: Date;
  resolvedAt: Date | null;
  failedPairs: AuditTarget[];
}

const CLOSED = ["resolved", "abandoned"];

/** Incidents still being handled, with their failed pairs. */
export async function listOpenIncidents(db: Db): Promise<IncidentRef[]> {
  const rows = await prismaOf(db).incident.findMany({
    where: { status: { notIn: CLOSED } },
    select: { id: true, title: true, status: true, detectedAt: true, resolvedAt: true, failedPairs: true },
    orderBy: { detectedAt: "desc" },
  });
  return rows.map((r) => ({ ...r, failedPairs: parseFailedPairs(r.failedPairs) }));
}

/** Whether the failed pairs name (node, key), for any of the node ids. */
export function namesUnit(pairs: readonly AuditTarget[], nodeIds: readonly string[], key: string): boolean {
  return pairs.some((p) => nodeIds.includes(p.nodeId) && p.units.includes(key));
}

import { PlanOptionsSchema, type PlanOptions } from "@/lib/contracts/repair";
import type { Db, Tx } from "../database";
import { prismaOf } from "../prisma-handle";

export interface StoredPlan {
  id: string;
  incidentId: string;
  strategy: string;
  options: PlanOptions;
  plan: unknown;
  status: string;
  createdBy: string;
  createdAt: Date;
}

const parse = (r: {
  id: string;
  incidentId: string;
  strategy: string;
  options: string;
  plan: string;
  status: string;
  createdBy: string;
  createdAt: Date;
}): StoredPlan => ({
  ...r,
  options: PlanOptionsSchema.parse(JSON.parse(r.options)),
  plan: JSON.parse(r.plan),
});

/** Confirms a plan: the incident's earlier confirmed plans are superseded in the same transaction. */
export async function confirmPlanRow(
  tx: Tx,
  p: { incidentId: string; strategy: string; options: unknown; plan: unknown; createdBy: string },
): Promise<StoredPlan> {
  await prismaOf(tx).repairPlan.updateMany({ where: { incidentId: p.incidentId, status: { in: ["confirmed", "launched"] } }, data: { status: "superseded" } });
  const row = await prismaOf(tx).repairPlan.create({
    data: {
      incidentId: p.incidentId,
      strategy: p.strategy,
      options: JSON.stringify(p.options),
      plan: JSON.stringify(p.plan),
      status: "confirmed",
      createdBy: p.createdBy,
    },
  });
  return parse(row);
}

export async function currentPlan(db: Db | Tx, incidentId: string): Promise<StoredPlan | null> {
  const row = await prismaOf(db).repairPlan.findFirst({ where: { incidentId, status: { in: ["confirmed", "launched"] } }, orderBy: { createdAt: "desc" } });
  return row ? parse(row) : null;
}

export async function markPlanLaunched(tx: Tx, planId: string): Promise<void> {
  await prismaOf(tx).repairPlan.updateMany({ where: { id: planId }, data: { status: "launched" } });
}

/** Scoping again withdraws the incident's confirmed plan: it was made for the old scope. */
export async function supersedeConfirmedPlans(tx: Tx, incidentId: string): Promise<void> {
  await prismaOf(tx).repairPlan.updateMany({ where: { incidentId, status: "confirmed" }, data: { status: "superseded" } });
}

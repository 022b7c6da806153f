import type { Db } from "../database";
import { prismaOf } from "../prisma-handle";

export interface DeliveryRecord {
  taskId: string;
  unitKey: string;
  destination: string;
  sentAt: Date;
}

const SELECT = { taskId: true, unitKey: true, destination: true, sentAt: true } as const;

/** Effects the given tasks sent outside the platform (an export delivered), oldest first. */
export async function deliveriesOf(db: Db, taskIds: string[]): Promise<DeliveryRecord[]> {
  if (taskIds.length === 0) return [];
  return prismaOf(db).externalDelivery.findMany({ where: { taskId: { in: taskIds } }, select: SELECT, orderBy: { sentAt: "asc" } });
}

/** Every effect sent outside the platform, whichever task sent it. */
export async function allDeliveries(db: Db): Promise<DeliveryRecord[]> {
  return prismaOf(db).externalDelivery.findMany({ select: SELECT });
}

import type { Db } from "../db/client";

export interface DeliveryRecord {
  taskId: string;
  unitKey: string;
  destination: string;
  sentAt: Date;
}

/** Effects the given tasks sent outside the platform (an export delivered), oldest first. */
export async function deliveriesOf(db: Db, taskIds: string[]): Promise<DeliveryRecord[]> {
  if (taskIds.length === 0) return [];
  const rows = await db.externalDelivery.findMany({
    where: { taskId: { in: taskIds } },
    select: { taskId: true, unitKey: true, destination: true, sentAt: true },
    orderBy: { sentAt: "asc" },
  });
  return rows;
}

import type { Db } from "../repositories/database";
import { recipientsOfNodes } from "../people/recipients";
import type { NoticeRecipientInput } from "./draft-notices";

/** Who an incident's notices go to: the owners and consumers of what its closure reaches (lib/server/people). */
export function recipientsFrom(db: Db): (nodeIds: string[]) => Promise<NoticeRecipientInput[]> {
  return (nodeIds) => recipientsOfNodes(db, nodeIds);
}

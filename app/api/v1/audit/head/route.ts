import { currentAuditHead } from "@/lib/server/audit/audit-head";
import { NotFoundError } from "@/lib/domain/errors";
import { route } from "@/lib/server/http/route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** The chain's last entry, signed with REPARO_AUDIT_KEY: store it where the database's writers cannot. */
export const GET = route({}, async () => {
  const head = await currentAuditHead();
  if (!head) throw new NotFoundError("the audit log is empty: there is no head to export yet");
  return head;
});

import { currentAuditHead } from "@/lib/server/audit/audit-head";
import { route } from "@/lib/server/http/route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** The chain's last entry, signed with REPARO_AUDIT_KEY: store it where the database's writers cannot. */
export const GET = route({}, async () => (await currentAuditHead()) ?? { seq: 0, hash: null, entries: 0, signature: null, keyId: null, exportedAt: new Date().toISOString() });

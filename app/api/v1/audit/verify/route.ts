import { verifyAuditChain } from "@/lib/server/audit/verify-audit-chain";
import { route } from "@/lib/server/http/route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route({}, async () => verifyAuditChain());

import { AuditListQuerySchema, AuditListSchema } from "@/lib/contracts/audit";
import { listAudit } from "@/lib/server/audit/list-audit";
import { route } from "@/lib/server/http/route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route({ response: AuditListSchema, query: AuditListQuerySchema }, async ({ query, actor }) => listAudit(query, actor));

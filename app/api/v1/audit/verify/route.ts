import { z } from "zod";
import { AuditHeadSchema, AuditVerifySchema } from "@/lib/contracts/audit";
import { verifyAuditChain } from "@/lib/server/audit/verify-audit-chain";
import { route } from "@/lib/server/http/route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route({ response: AuditVerifySchema }, async () => verifyAuditChain());

/** The same check, and against an exported head: `{ "head": <GET /api/v1/audit/head's answer> }`. */
export const POST = route({ role: "viewer", body: z.strictObject({ head: AuditHeadSchema }), maxBodyBytes: 4_096 }, async ({ body }) =>
  verifyAuditChain(undefined, body.head),
);

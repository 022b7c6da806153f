import { DeclareCleanedResultSchema } from "@/lib/contracts/repair";
import { DeclareCleanedBodySchema, IdParamsSchema } from "@/lib/contracts/incidents";
import { route } from "@/lib/server/http/route";
import { declareCleaned } from "@/lib/server/repair/declare-cleaned";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const POST = route(
  { response: DeclareCleanedResultSchema, params: IdParamsSchema, body: DeclareCleanedBodySchema, role: "operator" },
  ({ params, body, actor }) => declareCleaned(params.id, body, actor),
);

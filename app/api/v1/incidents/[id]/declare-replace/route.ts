import { OkSchema } from "@/lib/contracts/repair";
import { DeclareReplaceBodySchema, IdParamsSchema } from "@/lib/contracts/incidents";
import { route } from "@/lib/server/http/route";
import { declareReplace } from "@/lib/server/repair/declare-replace";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const POST = route({ response: OkSchema, params: IdParamsSchema, body: DeclareReplaceBodySchema, role: "operator" }, ({ params, body, actor }) =>
  declareReplace(params.id, body, actor),
);

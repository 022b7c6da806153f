import { OkSchema, ScopeWithLayoutSchema } from "@/lib/contracts/repair";
import { IdParamsSchema, ScopeBodySchema } from "@/lib/contracts/incidents";
import { route } from "@/lib/server/http/route";
import { getScopeView } from "@/lib/server/repair/get-scope-view";
import { recordScope } from "@/lib/server/repair/record-scope";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route({ response: ScopeWithLayoutSchema, params: IdParamsSchema }, ({ params }) => getScopeView(params.id));
export const POST = route({ response: OkSchema, params: IdParamsSchema, body: ScopeBodySchema, role: "operator" }, ({ params, body, actor }) =>
  recordScope(params.id, body, actor),
);

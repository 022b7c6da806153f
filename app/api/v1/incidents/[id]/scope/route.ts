import { IdParamsSchema, ScopeBodySchema } from "@/lib/contracts/incidents";
import { route } from "@/lib/server/http/route";
import { getScope } from "@/lib/server/repair/get-scope";
import { recordScope } from "@/lib/server/repair/record-scope";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route({ params: IdParamsSchema }, ({ params }) => getScope(params.id));
export const POST = route({ params: IdParamsSchema, body: ScopeBodySchema, role: "operator" }, ({ params, body, actor }) => recordScope(params.id, body, actor));

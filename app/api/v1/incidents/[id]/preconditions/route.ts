import { OkSchema, PreconditionsViewSchema } from "@/lib/contracts/repair";
import { IdParamsSchema, ReasonBodySchema } from "@/lib/contracts/incidents";
import { route } from "@/lib/server/http/route";
import { getPreconditions } from "@/lib/server/repair/get-preconditions";
import { recordPreconditions } from "@/lib/server/repair/record-preconditions";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route({ response: PreconditionsViewSchema, params: IdParamsSchema }, ({ params }) => getPreconditions(params.id));
export const POST = route({ response: OkSchema, params: IdParamsSchema, body: ReasonBodySchema, role: "operator" }, ({ params, body, actor }) =>
  recordPreconditions(params.id, body.reason, actor),
);

import { OkSchema } from "@/lib/contracts/repair";
import { IdParamsSchema, ReasonBodySchema } from "@/lib/contracts/incidents";
import { route } from "@/lib/server/http/route";
import { resolveIncident } from "@/lib/server/incidents/resolve-incident";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const POST = route({ response: OkSchema, params: IdParamsSchema, body: ReasonBodySchema, role: "operator" }, ({ params, body, actor }) =>
  resolveIncident(params.id, body.reason, actor),
);

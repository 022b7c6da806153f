import { OkSchema } from "@/lib/contracts/repair";
import { IdParamsSchema, SeverityBodySchema } from "@/lib/contracts/incidents";
import { route } from "@/lib/server/http/route";
import { setSeverity } from "@/lib/server/incidents/set-severity";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** A person's severity over the computed one, with the reason: kept until set again (docs/repair.md#severity). */
export const POST = route({ response: OkSchema, params: IdParamsSchema, body: SeverityBodySchema, role: "operator" }, ({ params, body, actor }) =>
  setSeverity(params.id, body, actor),
);

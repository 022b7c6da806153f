import { OkSchema } from "@/lib/contracts/repair";
import { IdParamsSchema, ReasonBodySchema } from "@/lib/contracts/incidents";
import { route } from "@/lib/server/http/route";
import { overrideValidation } from "@/lib/server/incidents/override-validation";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const POST = route({ response: OkSchema, params: IdParamsSchema, body: ReasonBodySchema, role: "commander" }, ({ params, body, actor }) =>
  overrideValidation(params.id, body.reason, actor),
);

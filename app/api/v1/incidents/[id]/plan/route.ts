import { IdParamsSchema } from "@/lib/contracts/incidents";
import { ConfirmPlanSchema, OkSchema } from "@/lib/contracts/repair";
import { route } from "@/lib/server/http/route";
import { confirmPlan } from "@/lib/server/repair/confirm-plan";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const POST = route({ response: OkSchema, params: IdParamsSchema, body: ConfirmPlanSchema, role: "operator" }, ({ params, body, actor }) =>
  confirmPlan(params.id, body, actor),
);

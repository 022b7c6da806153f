import { IdParamsSchema } from "@/lib/contracts/incidents";
import { PlanOptionsSchema, PlanViewSchema } from "@/lib/contracts/repair";
import { route } from "@/lib/server/http/route";
import { previewPlan } from "@/lib/server/repair/preview-plan";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// A preview writes nothing, so a viewer may look at it too.
export const POST = route({ response: PlanViewSchema, params: IdParamsSchema, body: PlanOptionsSchema, role: "viewer" }, ({ params, body }) =>
  previewPlan(params.id, body),
);

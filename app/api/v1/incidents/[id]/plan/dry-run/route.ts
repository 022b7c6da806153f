import { DispatchPreviewSchema } from "@/lib/contracts/orchestrators";
import { IdParamsSchema } from "@/lib/contracts/incidents";
import { PlanOptionsSchema } from "@/lib/contracts/repair";
import { route } from "@/lib/server/http/route";
import { previewPlanDispatch } from "@/lib/server/repair/dry-run";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// It sends requests to the orchestrators (dry runs, audited): an operator's step, like the dry run after confirming.
export const POST = route({ response: DispatchPreviewSchema, params: IdParamsSchema, body: PlanOptionsSchema, role: "operator" }, ({ params, body, actor }) =>
  previewPlanDispatch(params.id, body, actor),
);

import { CancelRepairResultSchema } from "@/lib/contracts/repair";
import { IdParamsSchema, ReasonBodySchema } from "@/lib/contracts/incidents";
import { route } from "@/lib/server/http/route";
import { cancelRepair } from "@/lib/server/repair/cancel-repair";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const POST = route({ response: CancelRepairResultSchema, params: IdParamsSchema, body: ReasonBodySchema, role: "operator" }, ({ params, body, actor }) =>
  cancelRepair(params.id, body, actor),
);

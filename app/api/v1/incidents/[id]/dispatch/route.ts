import { IdParamsSchema } from "@/lib/contracts/incidents";
import { DispatchBodySchema } from "@/lib/contracts/repair";
import { route } from "@/lib/server/http/route";
import { dispatchRepair } from "@/lib/server/repair/dispatch-repair";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const POST = route({ params: IdParamsSchema, body: DispatchBodySchema, role: "operator", retryWhenBusy: false }, ({ params, body, actor }) => dispatchRepair(params.id, body, actor));

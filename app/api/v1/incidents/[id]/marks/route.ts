import { OkSchema } from "@/lib/contracts/repair";
import { IdParamsSchema, MarkBodySchema } from "@/lib/contracts/incidents";
import { route } from "@/lib/server/http/route";
import { markUnits } from "@/lib/server/repair/mark-units";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// Marks change what every consumer believes about a unit: commanders only.
export const POST = route({ response: OkSchema, params: IdParamsSchema, body: MarkBodySchema, role: "commander" }, ({ params, body, actor }) =>
  markUnits(params.id, body, actor),
);

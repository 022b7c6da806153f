import { CleanUnitResultSchema } from "@/lib/contracts/repair";
import { CleanUnitBodySchema, IdParamsSchema } from "@/lib/contracts/incidents";
import { route } from "@/lib/server/http/route";
import { cleanUnit } from "@/lib/server/repair/clean-unit";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const POST = route({ response: CleanUnitResultSchema, params: IdParamsSchema, body: CleanUnitBodySchema, role: "operator" }, ({ params, body, actor }) =>
  cleanUnit(params.id, body, actor),
);

import { UnitDetailQuerySchema, UnitDetailSchema } from "@/lib/contracts/units";
import { route } from "@/lib/server/http/route";
import { getUnitDetail } from "@/lib/server/units/get-unit-detail";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route({ response: UnitDetailSchema, query: UnitDetailQuerySchema }, async ({ query }) =>
  getUnitDetail(query.dataset, query.unit, new Date()),
);

import { UnitMatrixQuerySchema, UnitMatrixSchema } from "@/lib/contracts/units";
import { route } from "@/lib/server/http/route";
import { getUnitMatrix } from "@/lib/server/units/get-unit-matrix";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route({ response: UnitMatrixSchema, query: UnitMatrixQuerySchema }, async ({ query }) => getUnitMatrix(query, new Date()));

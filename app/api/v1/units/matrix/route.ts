import { UnitMatrixAnswerSchema, UnitMatrixQuerySchema } from "@/lib/contracts/units";
import { route } from "@/lib/server/http/route";
import { getUnitMatrix, getUnitMatrixInRuns } from "@/lib/server/units/get-unit-matrix";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route({ response: UnitMatrixAnswerSchema, query: UnitMatrixQuerySchema }, async ({ query }) =>
  query.cells === "runs" ? getUnitMatrixInRuns(query, new Date()) : getUnitMatrix(query, new Date()),
);

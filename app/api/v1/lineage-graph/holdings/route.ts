import { ClosureQuerySchema, HoldingsSchema } from "@/lib/contracts/lineage";
import { route } from "@/lib/server/http/route";
import { getClosureHoldings } from "@/lib/server/lineage/get-closure-holdings";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route({ response: HoldingsSchema, query: ClosureQuerySchema }, async ({ query, req }) =>
  getClosureHoldings(query, new Date(), undefined, req.signal),
);

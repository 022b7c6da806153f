import { z } from "zod";
import { CompactHoldingsSchema, HoldingsAnswerQuerySchema, compactHoldings } from "@/lib/contracts/compact-holdings";
import { HoldingsSchema } from "@/lib/contracts/lineage";
import { route } from "@/lib/server/http/route";
import { getClosureHoldings } from "@/lib/server/lineage/get-closure-holdings";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route({ response: z.union([HoldingsSchema, CompactHoldingsSchema]), query: HoldingsAnswerQuerySchema }, async ({ query, req }) => {
  const holdings = await getClosureHoldings(query, new Date(), undefined, req.signal);
  return query.form === "compact" ? compactHoldings(holdings) : holdings;
});

import { z } from "zod";
import { CompactLineageGraphSchema, LineageGraphAnswerQuerySchema } from "@/lib/contracts/compact-lineage-graph";
import { LineageGraphSchema } from "@/lib/contracts/lineage";
import { keptJsonResponse } from "@/lib/server/http/kept-json";
import { route } from "@/lib/server/http/route";
import { getKeptLineageGraphView } from "@/lib/server/lineage/get-lineage-graph-view";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route({ response: z.union([LineageGraphSchema, CompactLineageGraphSchema]), query: LineageGraphAnswerQuerySchema }, async ({ query }) => {
  const { asOf, body } = await getKeptLineageGraphView(query.asOf, new Date(), undefined, query.form);
  return keptJsonResponse(body, { asOf });
});

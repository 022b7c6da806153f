import { LineageGraphQuerySchema, LineageGraphSchema } from "@/lib/contracts/lineage";
import { keptJsonResponse } from "@/lib/server/http/kept-json";
import { route } from "@/lib/server/http/route";
import { getKeptLineageGraphView } from "@/lib/server/lineage/get-lineage-graph-view";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route({ response: LineageGraphSchema, query: LineageGraphQuerySchema }, async ({ query }) => {
  const { asOf, body } = await getKeptLineageGraphView(query.asOf, new Date());
  return keptJsonResponse(body, { asOf });
});

import { LineageGraphQuerySchema, LineageGraphSchema } from "@/lib/contracts/lineage";
import { route } from "@/lib/server/http/route";
import { getLineageGraphView } from "@/lib/server/lineage/get-lineage-graph-view";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route({ response: LineageGraphSchema, query: LineageGraphQuerySchema }, async ({ query }) => getLineageGraphView(query.asOf, new Date()));

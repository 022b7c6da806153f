import { LineageLayoutQuerySchema, LineageLayoutSchema } from "@/lib/contracts/lineage";
import { keptJsonResponse } from "@/lib/server/http/kept-json";
import { route } from "@/lib/server/http/route";
import { getKeptLineageLayout } from "@/lib/server/lineage/get-lineage-layout";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route({ response: LineageLayoutSchema, query: LineageLayoutQuerySchema }, async ({ query }) =>
  keptJsonResponse(await getKeptLineageLayout(query, new Date())),
);

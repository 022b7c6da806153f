import { LineageLayoutQuerySchema, LineageLayoutSchema } from "@/lib/contracts/lineage";
import { route } from "@/lib/server/http/route";
import { getLineageLayout } from "@/lib/server/lineage/get-lineage-layout";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route({ response: LineageLayoutSchema, query: LineageLayoutQuerySchema }, async ({ query }) => getLineageLayout(query, new Date()));

import { route } from "@/lib/server/http/route";
import { ingestWarehouseCountsAs } from "@/lib/server/ingestion/ingest-as";

export const runtime = "nodejs";

/** The rows each (dataset, unit) holds in its own warehouse, as the team counted them; the latest measurement wins. */
export const POST = route({ tokens: ["ingest"] }, async ({ req, actor }) => ingestWarehouseCountsAs(req, actor));

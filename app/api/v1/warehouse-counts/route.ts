import { route } from "@/lib/server/http/route";
import { LEDGER_BODY, ingestWarehouseCountsAs } from "@/lib/server/ingestion/ingest-as";

export const runtime = "nodejs";

/** The rows each (dataset, unit) holds in its own warehouse, as the team counted them; the latest measurement wins. */
export const POST = route({ tokens: ["ingest"], rawBody: LEDGER_BODY }, async ({ rawBody, actor }) => ingestWarehouseCountsAs(rawBody, actor));

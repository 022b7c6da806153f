import { route } from "@/lib/server/http/route";
import { ingestSourceCountsAs } from "@/lib/server/ingestion/ingest-as";

export const runtime = "nodejs";

/** Source row counts per (dataset, unit), one object or a JSON array; the latest measurement wins. */
export const POST = route({ tokens: ["ingest"] }, async ({ req, actor }) => ingestSourceCountsAs(req, actor));

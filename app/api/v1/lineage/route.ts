import { route } from "@/lib/server/http/route";
import { ingestLineageAs } from "@/lib/server/ingestion/ingest-as";

export const runtime = "nodejs";

/** OpenLineage events (one JSON event, a JSON array, or NDJSON): the path Marquez serves. */
export const POST = route({ tokens: ["ingest"] }, async ({ req, actor }) => ingestLineageAs(req, actor));

import { route } from "@/lib/server/http/route";
import { LINEAGE_BODY, ingestLineageAs } from "@/lib/server/ingestion/ingest-as";

export const runtime = "nodejs";

/** OpenLineage events (one JSON event, a JSON array, or NDJSON): the path Marquez serves. */
export const POST = route({ tokens: ["ingest"], rawBody: LINEAGE_BODY }, async ({ rawBody, actor }) => ingestLineageAs(rawBody, actor));

import { route } from "@/lib/server/http/route";
import { postIngestion } from "@/lib/server/http/ingestion-requests";
import { INGESTION_BODIES } from "@/lib/server/ingestion/ingest";

export const runtime = "nodejs";

/** OpenLineage events (one JSON event, a JSON array, or NDJSON): the path Marquez serves. */
export const POST = route({ tokens: ["ingest"], rawBody: INGESTION_BODIES.lineage }, async ({ rawBody, actor }) => postIngestion("lineage", rawBody, actor));

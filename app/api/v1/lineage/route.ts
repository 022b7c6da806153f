import { route } from "@/lib/server/http/route";
import { receiveLineageRequest } from "@/lib/server/ingestion/receive-lineage-request";

export const runtime = "nodejs";

/** OpenLineage events (one JSON event, a JSON array, or NDJSON): the path Marquez serves. */
export const POST = route({}, async ({ req }) => receiveLineageRequest(req));

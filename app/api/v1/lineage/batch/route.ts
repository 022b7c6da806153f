import { route } from "@/lib/server/http/route";
import { receiveLineageBatchRequest } from "@/lib/server/ingestion/receive-lineage-batch-request";

export const runtime = "nodejs";

/** The OpenLineage batch API: a JSON array of RunEvents, DatasetEvents and JobEvents. */
export const POST = route({}, async ({ req }) => receiveLineageBatchRequest(req));

import { route } from "@/lib/server/http/route";
import { postIngestion } from "@/lib/server/http/ingestion-requests";
import { INGESTION_BODIES } from "@/lib/server/ingestion/ingest";

export const runtime = "nodejs";

/** The OpenLineage batch API: a JSON array of RunEvents, DatasetEvents and JobEvents. */
export const POST = route({ tokens: ["ingest"], rawBody: INGESTION_BODIES["lineage-batch"] }, async ({ rawBody, actor }) =>
  postIngestion("lineage-batch", rawBody, actor),
);

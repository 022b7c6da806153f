import { route } from "@/lib/server/http/route";
import { LINEAGE_BODY, ingestLineageBatchAs } from "@/lib/server/ingestion/ingest-as";

export const runtime = "nodejs";

/** The OpenLineage batch API: a JSON array of RunEvents, DatasetEvents and JobEvents. */
export const POST = route({ tokens: ["ingest"], rawBody: LINEAGE_BODY }, async ({ rawBody, actor }) => ingestLineageBatchAs(rawBody, actor));

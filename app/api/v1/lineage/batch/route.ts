import { route } from "@/lib/server/http/route";
import { ingestLineageBatchAs } from "@/lib/server/ingestion/ingest-as";

export const runtime = "nodejs";

/** The OpenLineage batch API: a JSON array of RunEvents, DatasetEvents and JobEvents. */
export const POST = route({ tokens: ["ingest"] }, async ({ req, actor }) => ingestLineageBatchAs(req, actor));

import { route } from "@/lib/server/http/route";
import { LEDGER_BODY, ingestPublishesAs } from "@/lib/server/ingestion/ingest-as";

export const runtime = "nodejs";

/** Publish ledger entries from producers that do not speak OpenLineage (one object or a JSON array). */
export const POST = route({ tokens: ["ingest"], rawBody: LEDGER_BODY }, async ({ rawBody, actor }) => ingestPublishesAs(rawBody, actor));

import { route } from "@/lib/server/http/route";
import { ingestPublishesAs } from "@/lib/server/ingestion/ingest-as";

export const runtime = "nodejs";

/** Publish ledger entries from producers that do not speak OpenLineage (one object or a JSON array). */
export const POST = route({ tokens: ["ingest"] }, async ({ req, actor }) => ingestPublishesAs(req, actor));

import { route } from "@/lib/server/http/route";
import { LEDGER_BODY, ingestSourceCountsAs } from "@/lib/server/ingestion/ingest-as";

export const runtime = "nodejs";

/** Source row counts per (dataset, unit), one object or a JSON array; the latest measurement wins. */
export const POST = route({ tokens: ["ingest"], rawBody: LEDGER_BODY }, async ({ rawBody, actor }) => ingestSourceCountsAs(rawBody, actor));

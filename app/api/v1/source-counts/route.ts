import { route } from "@/lib/server/http/route";
import { postIngestion } from "@/lib/server/http/ingestion-requests";
import { INGESTION_BODIES } from "@/lib/server/ingestion/ingest";

export const runtime = "nodejs";

/** Source row counts per (dataset, unit), one object or a JSON array; the latest measurement wins. */
export const POST = route({ tokens: ["ingest"], rawBody: INGESTION_BODIES["source-counts"] }, async ({ rawBody, actor }) =>
  postIngestion("source-counts", rawBody, actor),
);

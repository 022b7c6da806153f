import { route } from "@/lib/server/http/route";
import { postIngestion } from "@/lib/server/http/ingestion-requests";
import { INGESTION_BODIES } from "@/lib/server/ingestion/ingest";

export const runtime = "nodejs";

/** The rows each (dataset, unit) holds in its own warehouse, as the team counted them; the latest measurement wins. */
export const POST = route({ tokens: ["ingest"], rawBody: INGESTION_BODIES["warehouse-counts"] }, async ({ rawBody, actor }) =>
  postIngestion("warehouse-counts", rawBody, actor),
);

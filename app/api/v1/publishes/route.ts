import { route } from "@/lib/server/http/route";
import { postIngestion } from "@/lib/server/http/ingestion-requests";
import { INGESTION_BODIES } from "@/lib/server/ingestion/ingest";

export const runtime = "nodejs";

/** Publish ledger entries from producers that do not speak OpenLineage (one object or a JSON array). */
export const POST = route({ tokens: ["ingest"], rawBody: INGESTION_BODIES.publishes }, async ({ rawBody, actor }) =>
  postIngestion("publishes", rawBody, actor),
);

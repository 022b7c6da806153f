import { route } from "@/lib/server/http/route";
import { receiveSourceCountsRequest } from "@/lib/server/ingestion/receive-source-counts-request";

export const runtime = "nodejs";

/** Source row counts per (dataset, unit), one object or a JSON array; the latest measurement wins. */
export const POST = route({}, async ({ req }) => receiveSourceCountsRequest(req));

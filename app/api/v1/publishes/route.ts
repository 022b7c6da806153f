import { route } from "@/lib/server/http/route";
import { receivePublishesRequest } from "@/lib/server/ingestion/receive-publishes-request";

export const runtime = "nodejs";

/** Publish ledger entries from producers that do not speak OpenLineage (one object or a JSON array). */
export const POST = route({}, async ({ req }) => receivePublishesRequest(req));

import { IngestionStatusSchema } from "@/lib/contracts/ingestion";
import { route } from "@/lib/server/http/route";
import { getIngestionStatus } from "@/lib/server/ingestion/get-ingestion-status";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route({ response: IngestionStatusSchema }, async () => getIngestionStatus());

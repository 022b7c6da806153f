import { route } from "@/lib/server/http/route";
import { receiveDbtImportRequest } from "@/lib/server/ingestion/receive-dbt-import-request";

export const runtime = "nodejs";

/** dbt artifacts: `{ manifest, run_results?, namespace?, datasetNamespace? }` as JSON (64 MiB at most). */
export const POST = route({}, async ({ req }) => receiveDbtImportRequest(req));

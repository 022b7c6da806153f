import { namespaceLimitedRefusal } from "@/lib/server/auth/roles";
import { ForbiddenError } from "@/lib/domain/errors";
import { route } from "@/lib/server/http/route";
import { postDbtImport } from "@/lib/server/http/ingestion-requests";
import { INGESTION_BODIES } from "@/lib/server/ingestion/ingest";

export const runtime = "nodejs";

/** dbt artifacts: `{ manifest, run_results?, namespace?, datasetNamespace? }` as JSON (64 MiB at most). */
export const POST = route({ tokens: ["ingest"], rawBody: INGESTION_BODIES.dbt }, async ({ rawBody, actor }) => {
  const refused = namespaceLimitedRefusal(actor, "a dbt import");
  if (refused) throw new ForbiddenError(refused);
  return postDbtImport(rawBody, actor);
});

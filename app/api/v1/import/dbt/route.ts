import { namespaceLimitedRefusal } from "@/lib/server/auth/roles";
import { ForbiddenError } from "@/lib/domain/errors";
import { route } from "@/lib/server/http/route";
import { DBT_IMPORT_BODY, ingestDbtAs } from "@/lib/server/ingestion/ingest-as";

export const runtime = "nodejs";

/** dbt artifacts: `{ manifest, run_results?, namespace?, datasetNamespace? }` as JSON (64 MiB at most). */
export const POST = route({ tokens: ["ingest"], rawBody: DBT_IMPORT_BODY }, async ({ rawBody, actor }) => {
  const refused = namespaceLimitedRefusal(actor, "a dbt import");
  if (refused) throw new ForbiddenError(refused);
  return ingestDbtAs(rawBody, actor);
});

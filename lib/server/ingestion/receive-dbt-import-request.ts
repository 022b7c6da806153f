import type { Submitter } from "../auth/roles";
import { DbtImportBodySchema, type DbtImportResult } from "@/lib/contracts/ingestion-dbt";
import { getDb, type Db } from "../repositories/database";
import { HttpError } from "../http/errors";
import { readJsonBody, type BodySource } from "../http/read-body";
import { requireWellFormed } from "../http/well-formed-text";
import { zodToHttp } from "../http/route";
import { recordRejections } from "../repositories/ingestion/ingested-events";
import { importDbtArtifacts } from "./import-dbt-artifacts";

export const DBT_IMPORT_MAX_BODY_BYTES = 64 * 1024 * 1024;
const ENDPOINT = "/api/v1/import/dbt";

/** POST /api/v1/import/dbt: `{ manifest, run_results?, namespace?, datasetNamespace? }`; a refused body writes nothing but its line in the rejection log. */
export async function receiveDbtImportRequest(req: BodySource, db: Db = getDb(), now = new Date(), submitter?: Submitter): Promise<DbtImportResult> {
  try {
    const json = requireWellFormed(await readJsonBody(req, DBT_IMPORT_MAX_BODY_BYTES));
    const parsed = DbtImportBodySchema.safeParse(json);
    if (!parsed.success) throw zodToHttp(parsed.error, "body");
    return await importDbtArtifacts(db, parsed.data, now, submitter);
  } catch (e) {
    if (e instanceof HttpError) {
      const issues = (e.details as { issues?: { path: string }[] } | undefined)?.issues;
      await recordRejections(db, [{ endpoint: ENDPOINT, fieldPath: issues?.[0]?.path ?? "body", reason: e.message, body: "" }], now);
    }
    throw e;
  }
}

import { describeIssues, fieldIssues } from "@/lib/contracts/field-issues";
import { DbtImportBodySchema, type DbtImportResult } from "@/lib/contracts/ingestion-dbt";
import { InvalidInputError } from "@/lib/domain/errors";
import { parseJsonInput } from "@/lib/domain/json-limits";
import { requireWellFormed } from "@/lib/domain/well-formed-text";
import type { Db } from "../repositories/database";
import { importDbtArtifacts } from "./import-dbt-artifacts";
import type { IngestionInput } from "./ingestion-outcome";
import { refusedWholeLogged } from "./read-ingestion-batch";

export const DBT_IMPORT_MAX_BODY_BYTES = 64 * 1024 * 1024;
export const DBT_IMPORT_ENDPOINT = "/api/v1/import/dbt";

/**
 * POST /api/v1/import/dbt's use case: `{ manifest, run_results?, namespace?, datasetNamespace? }`;
 * a refused body (naming its first bad field) writes nothing but its line in the rejection log.
 */
export async function receiveDbtImport(db: Db, input: IngestionInput, now: Date): Promise<DbtImportResult> {
  const body = await refusedWholeLogged(db, DBT_IMPORT_ENDPOINT, now, () => {
    const parsed = DbtImportBodySchema.safeParse(requireWellFormed(parseJsonInput(input.text)));
    if (parsed.success) return parsed.data;
    const issues = fieldIssues(parsed.error, "body");
    throw new InvalidInputError(describeIssues(issues), issues);
  });
  return importDbtArtifacts(db, body, now, input.submitter);
}
